// GET /api/sessions/:key/events/:i/line: the raw view of a big log opens an event to its line without the
// whole log; the line is the one the page matches when it holds the whole text (client lib/json.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { eventLines, jsonLines } from '../../client/src/lib/json.ts';
import { ErrorBodySchema } from '../../shared/common.ts';
import { LogLineSchema } from '../../shared/session-views.ts';
import { SessionDetailSchema } from '../../shared/sessions.ts';
import { fixtureHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const test = suite('event line api');
let c: Launched;

test.before(async () => {
  c = await launch();
});
test.after(async () => {
  await c.stop();
});

const SESSIONS = [
  ['served/shop/20260928T020401.117Z-14662.jsonl', '20260928T020401.117Z-14662'],
  ['logs/shop/20260928T020400.548Z-14457.jsonl', '20260928T020400.548Z-14457'],
];

test('every event opens to the line the page would match over the whole log', async () => {
  for (const [rel, key] of SESSIONS) {
    const detail = v.parse(SessionDetailSchema, await (await c.api(`/api/sessions/${key}`)).json());
    assert.ok(detail.events.length > 0, key);
    const expected = eventLines(detail.events, jsonLines(readFileSync(join(fixtureHome, rel!), 'utf8')));
    for (let i = 0; i < detail.events.length; i++) {
      const res = await c.api(`/api/sessions/${key}/events/${i}/line`);
      const want = expected[i];
      if (!want) {
        assert.is(res.status, 404, `${key} event ${i}`);
        continue;
      }
      assert.is(res.status, 200, `${key} event ${i}`);
      const line = v.parse(LogLineSchema, await res.json());
      assert.equal([line.n, line.text, line.cut], [want.n, want.text, false], `${key} event ${i}`);
    }
  }
});

test('an event past the end is a 404 naming the count; a bad index a 400; a missing session a 404', async () => {
  const key = SESSIONS[0]![1]!;
  const res = await c.api(`/api/sessions/${key}/events/99999/line`);
  assert.is(res.status, 404);
  assert.match(v.parse(ErrorBodySchema, await res.json()).error, /no event 99999: this session has \d+ \(from 0\)/);
  const bad = await c.api(`/api/sessions/${key}/events/-1/line`);
  assert.is(bad.status, 400);
  assert.match(v.parse(ErrorBodySchema, await bad.json()).error, /event: a whole number/);
  assert.is((await c.api('/api/sessions/nope/events/0/line')).status, 404);
});

test.run();
