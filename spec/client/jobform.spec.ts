import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { JobRequestSchema } from '../../shared/jobs.ts';
import { defaultFields, fieldsFromParams, requestBody, validate } from '../../client/src/lib/jobform.ts';

const jobform = suite('jobform');
const flow = { key: 'shop', path: 'shop.flow.json', name: 'shop', domain: 'shop' };

jobform('the learn form takes a domain by the CLI\'s own rule (the server answers 400 past it)', () => {
  const f = defaultFields();
  assert.equal(validate('learn', f), { domain: 'Name the domain.' });
  assert.equal(validate('learn', { ...f, domain: 'sh op' }), { domain: 'Use letters, digits, -, _ and .' });
  assert.equal(validate('learn', { ...f, domain: '-x' }), { domain: 'Start with a letter, a digit or _.' });
  assert.equal(validate('learn', { ...f, domain: '.x' }), { domain: 'Start with a letter, a digit or _.' });
  // What check_domain takes (console-api.md, learn): letters of either case, digits, -, _ and ., any length.
  for (const ok of ['notes', 'Shop', 'shop.eu', `_${'a'.repeat(80)}`]) assert.equal(validate('learn', { ...f, domain: ok }), {}, ok);
});

jobform('promote, audit and stage need a flow and sessions; numbers are checked', () => {
  const f = defaultFields();
  assert.equal(validate('audit', f), { flow: 'Choose the flow to audit.', sessions: 'Give the directory of sessions, or choose a flow to use its default.' });
  // With a flow, an empty Sessions field takes the default the preview shows (issue 15).
  const shop = { key: 'shop', path: 'shop.flow.json', name: 'shop', domain: 'shop' };
  for (const kind of ['audit', 'promote', 'stage'] as const) assert.is(validate(kind, { ...f, flow: 'shop' }, shop).sessions, undefined, kind);
  assert.equal(validate('redact', f), { sessions: 'Give the directory of sessions.' });
  assert.equal(validate('promote', { ...f, flow: 'shop', sessions: 's', threshold: '1.5', min_tasks: '0' }), {
    threshold: 'A number from 0 to 1.',
    min_tasks: 'A whole number, 1 or more.',
  });
  assert.equal(validate('stage', { ...f, flow: 'shop', sessions: 's', window: 'x', half_life: '0' }), {
    window: 'A whole number, 1 or more.',
    half_life: 'A number of sessions, more than 0.',
  });
  assert.equal(validate('doctor', f), {});
});

jobform('each request body is a valid job request, leaving what holds its default to the server', () => {
  const f = defaultFields();
  const bodies = [
    requestBody('learn', { ...f, domain: 'notes' }, undefined),
    requestBody('promote', { ...f, flow: 'shop' }, flow),
    requestBody('audit', { ...f, flow: 'shop', decider: 'reach' }, flow),
    requestBody('stage', { ...f, flow: 'shop' }, flow),
    requestBody('redact', { ...f, sessions: 'logs/shop' }, undefined),
    requestBody('doctor', f, undefined),
  ];
  for (const b of bodies) assert.ok(v.safeParse(JobRequestSchema, b).success, JSON.stringify(b));
  assert.equal(bodies[0], { kind: 'learn', domain: 'notes', sessions: 'logs/notes', out: null, overwrite: null, habit_only: null, constants: null });
  assert.equal(bodies[4], { kind: 'redact', sessions: 'logs/shop', out: 'redacted/shop', keep_shared: null, hash_fields: null });
  const changed = requestBody('promote', { ...f, flow: 'shop', threshold: '0.25', overwrite: true }, flow);
  assert.equal(changed, { kind: 'promote', flow: 'shop', sessions: 'shadow/shop', oracle_cache: null, threshold: 0.25, min_used: null, min_lower: null, min_tasks: null, out: null, overwrite: true });
});

jobform('a past job parameters fill the form, numbers as text and unknown fields left out', () => {
  assert.equal(fieldsFromParams({ kind: 'promote', flow: 'shop', threshold: 0.4, overwrite: true, bogus: 1, hash_fields: ['a', 2] }), {
    flow: 'shop',
    threshold: '0.4',
    overwrite: true,
    hash_fields: ['a'],
  });
  assert.equal(fieldsFromParams(null), {});
});

jobform('drift has its own window (3 or more, 10 by default) and threshold (0.5); run again keeps them apart from stage\'s', () => {
  const f = { ...defaultFields(), flow: 'shop' };
  assert.equal(validate('drift', f, flow), {});
  assert.equal(validate('drift', { ...f, drift_window: '2', drift_threshold: '0' }, flow), {
    drift_window: 'A whole number of sessions, 3 or more.',
    drift_threshold: 'A number above 0, at most 1.',
  });
  const body = requestBody('drift', f, flow);
  assert.equal(body, { kind: 'drift', flow: 'shop', sessions: 'logs/shop', decider: null, window: null, threshold: null });
  v.parse(JobRequestSchema, body);
  assert.equal(requestBody('drift', { ...f, drift_window: '20', drift_threshold: '0.8' }, flow), { ...body, window: 20, threshold: 0.8 });
  const again = fieldsFromParams({ kind: 'drift', flow: 'shop', sessions: 'logs/shop', window: 20, threshold: 0.8, decider: null });
  assert.equal(again, { sessions: 'logs/shop', flow: 'shop', drift_window: '20', drift_threshold: '0.8' });
});

jobform.run();
