// GET /api/sessions/:key/otlp and GET /api/sessions/otlp over HTTP on a temp copy of the fixture home: the
// downloads decode with the OTLP definitions and hold to their logs, the list's filters and ticked keys
// choose the sessions, the statuses (400, 404, 422), and a log whose stem is `otlp` stays reachable.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { SessionListSchema } from '../../shared/sessions.ts';
import { launch, type Launched } from '../support/launch.ts';
import { decodeJson, holdToSession } from '../support/otlp-decode.ts';

const SERVED = '20260928T020401.117Z-14662';
const RECORDED = '20260928T020400.548Z-14457';

const otlp = suite('otlp api');
let c: Launched;
otlp.before(async () => {
  c = await launch();
});
otlp.after(async () => {
  await c.stop();
});

async function error(res: Response, status: number): Promise<string> {
  assert.is(res.status, status);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

const idOf = (line: string) => String(decodeJson(line).resources[0]!.spans[0]!.attributes['gen_ai.conversation.id']);

otlp('one session downloads as an ExportTraceServiceRequest that holds to its log', async () => {
  const res = await c.api(`/api/sessions/${SERVED}/otlp`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.is(res.headers.get('content-disposition'), `attachment; filename="${SERVED}.otlp.json"`);
  const text = await res.text();
  holdToSession(decodeJson(text), join(c.dataDir, 'served/shop', `${SERVED}.jsonl`));
  assert.not.match(text, /gen_ai\.tool\.call\.arguments/);
  const opted = await (await c.api(`/api/sessions/${SERVED}/otlp?payloads=1`)).text();
  assert.match(opted, /gen_ai\.tool\.call\.arguments/);
});

otlp('the list export is JSON Lines, one request per session the filters match, newest first', async () => {
  const list = v.parse(SessionListSchema, await (await c.api('/api/sessions?mode=shadow&limit=500')).json());
  const res = await c.api('/api/sessions/otlp?mode=shadow');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/x-ndjson');
  const lines = (await res.text()).split('\n');
  assert.is(lines.pop(), '', 'each line ends in a newline');
  assert.equal(lines.map(idOf), list.items.map((s) => s.session_id));
  assert.ok(lines.length === 3);
  const all = (await (await c.api('/api/sessions/otlp')).text()).trimEnd().split('\n');
  const total = v.parse(SessionListSchema, await (await c.api('/api/sessions')).json()).total;
  assert.is(all.length, total);
});

otlp('ticked keys export those sessions in their order; an unknown key is a 404, a bad filter a 400', async () => {
  const lines = (await (await c.api(`/api/sessions/otlp?keys=${RECORDED},${SERVED}`)).text()).trimEnd().split('\n');
  assert.equal(lines.map(idOf), [RECORDED, SERVED]);
  assert.match(await error(await c.api(`/api/sessions/otlp?keys=${RECORDED},nope`), 404), /no session "nope"/);
  assert.match(await error(await c.api('/api/sessions/otlp?mode=odd'), 400), /mode/);
  assert.match(await error(await c.api(`/api/sessions/${SERVED}/otlp?payloads=yes`), 400), /payloads/);
  assert.match(await error(await c.api('/api/sessions/nope/otlp'), 404), /no session "nope"/);
});

otlp('a log that is not a session log is a 422 with its path', async () => {
  writeFileSync(join(c.dataDir, 'logs/shop/broken.jsonl'), 'not json\n');
  assert.match(await error(await c.api('/api/sessions/broken/otlp'), 422), /logs\/shop\/broken\.jsonl is not a session log/);
});

otlp('a log whose stem is otlp gets a hashed key and stays reachable', async () => {
  copyFileSync(join(c.dataDir, 'logs/shop', `${RECORDED}.jsonl`), join(c.dataDir, 'logs/shop/otlp.jsonl'));
  const list = v.parse(SessionListSchema, await (await c.api('/api/sessions?limit=500')).json());
  const item = list.items.find((s) => s.path === 'logs/shop/otlp.jsonl');
  assert.ok(item, 'listed');
  assert.match(item!.key, /^otlp~[0-9a-f]{8}$/);
  const res = await c.api(`/api/sessions/${item!.key}/otlp`);
  assert.is(res.status, 200);
  assert.is(idOf(await res.text()), RECORDED);
});

otlp.run();
