// Pure UI helpers: the palette's word match, an event's log line, the chart's edge labels
// and the job form's default sessions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { labelPlace } from '../../client/src/lib/chart.ts';
import { defaultFields, validate } from '../../client/src/lib/jobform.ts';
import { eventLines, jsonLines } from '../../client/src/lib/json.ts';
import { matchesQuery } from '../../client/src/lib/palette.ts';

const lib = suite('client ux lib');

lib('the palette matches each word of the query, in any order, and initials', () => {
  assert.ok(matchesQuery({ label: 'Add a server' }, 'add serv'));
  assert.ok(matchesQuery({ label: 'Add a server' }, 'serv add'));
  assert.ok(matchesQuery({ label: 'New learn job' }, 'nlj'));
  assert.not.ok(matchesQuery({ label: 'Add a server' }, 'add flow'));
  assert.not.ok(matchesQuery({ label: 'Add a server' }, 'x'));
});

lib('an event is matched to its log line by time and origin, a batch line to all of its events', () => {
  const lines = jsonLines(['{"engine_mcp_log":2}', '{"t_ms":1,"from":"client","message":{"id":1}}', '{"t_ms":1,"from":"client","message":{"id":2}}', '{"t_ms":5,"from":"server","message":[{"id":1},{"id":2}]}'].join('\n'));
  const events = [
    { t_ms: 1, from: 'client' },
    { t_ms: 1, from: 'client' },
    { t_ms: 5, from: 'server' },
    { t_ms: 5, from: 'server' },
    { t_ms: 9, from: 'proxy' },
  ];
  assert.equal(eventLines(events, lines).map((l) => l?.n ?? null), [2, 3, 4, 4, null]);
});

lib('a day label that would reach past an edge is anchored to it', () => {
  assert.equal(labelPlace(330, 340), { x: 339, anchor: 'end' });
  assert.equal(labelPlace(10, 340), { x: 1, anchor: 'start' });
  assert.equal(labelPlace(170, 340), { x: 170, anchor: 'middle' });
});

lib('redact still needs its sessions; learn takes logs/<domain>', () => {
  assert.equal(validate('redact', defaultFields()), { sessions: 'Give the directory of sessions.' });
  assert.equal(validate('learn', { ...defaultFields(), domain: 'shop' }), {});
});

lib.run();
