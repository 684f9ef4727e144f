// The memo of the sessions list is keyed by the whole parsed query: a filter added to the schema is in the
// key without a word in the data layer, so no two different queries share a page.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { SessionsQuerySchema } from '../../shared/sessions.ts';
import { sessionsPageKey } from '../../server/data/sessions.ts';

const test = suite('data: the sessions page key');

test('changing any one field of a parsed query changes the key', () => {
  const base = v.parse(SessionsQuerySchema, {});
  const changed = v.parse(SessionsQuerySchema, {
    domain: 'shop', mode: 'served', q: 'x', limit: '7', offset: '3', from: '2026-01-01', to: '2026-01-02',
    since: '5', agent: 'a', tool: 't', has: 'errors', sort: 'agent', order: 'asc',
  });
  const fields = Object.keys(base);
  assert.ok(fields.length >= 13, 'every field of the schema is in the parsed query');
  for (const field of fields) {
    const one = { ...base, [field]: changed[field as keyof typeof changed] };
    assert.is.not(sessionsPageKey(one), sessionsPageKey(base), `${field} is in the key`);
  }
  assert.is(sessionsPageKey(v.parse(SessionsQuerySchema, {})), sessionsPageKey(base), 'the same query, the same key');
});

test.run();
