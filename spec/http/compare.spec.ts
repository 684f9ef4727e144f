// GET /api/sessions/compare and GET /api/sessions/:key/closest over HTTP on a temp copy of the fixture home:
// the alignment of a recorded and a served shop session, the statuses (400, 404, 422), and a log whose stem
// is `compare`, which stays reachable under a hashed key.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { ClosestSessionSchema, SessionComparisonSchema } from '../../shared/compare.ts';
import { SessionDetailSchema, SessionListSchema } from '../../shared/sessions.ts';
import { launch, type Launched } from '../support/launch.ts';

const RECORDED = '20260928T020400.548Z-14457';
const SERVED = '20260928T020401.117Z-14662';

const compare = suite('compare api');
let c: Launched;
compare.before(async () => {
  c = await launch();
});
compare.after(async () => {
  await c.stop();
});

async function error(res: Response, status: number): Promise<string> {
  assert.is(res.status, status);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

compare('a recorded and a served shop session line up: the lookups beside the agent\'s calls, the hand-backs alone', async () => {
  const res = await c.api(`/api/sessions/compare?a=${RECORDED}&b=${SERVED}`);
  assert.is(res.status, 200);
  const body = v.parse(SessionComparisonSchema, await res.json());
  const side = (x: (typeof body.rows)[number]['a']) => (x ? `${x.kind} ${x.tool ?? `(${x.site})`} ${JSON.stringify(x.arguments)}` : '');
  assert.equal(
    body.rows.map((r) => [side(r.a), side(r.b), r.same_arguments]),
    [
      ['agent find_user_id_by_email {"email":"c1@example.com"}', 'agent find_user_id_by_email {"email":"c41@example.com"}', false],
      ['agent get_user_details {"user_id":"user_1"}', 'lookup get_user_details {"user_id":"user_41"}', false],
      ['agent get_order_details {"order_id":"#W1a"}', 'lookup get_order_details {"order_id":"#W41a"}', false],
      ['agent get_order_details {"order_id":"#W1b"}', 'lookup get_order_details {"order_id":"#W41b"}', false],
      ['', 'hand_back (get_order_details) null', null],
      ['agent cancel_pending_order {"order_id":"#W1a","reason":"no longer needed"}', 'agent cancel_pending_order {"order_id":"#W41a","reason":"no longer needed"}', false],
      ['', 'hand_back (cancel_pending_order) null', null],
    ],
  );
  assert.is(body.paired, 5);
  assert.equal(body.difference, { llm_turns: -3, tool_calls: -3, errors: 0, duration_ms: -1796, flow_lookups: 3 });
  assert.equal([body.a.key, body.a.mode, body.b.key, body.b.mode], [RECORDED, 'recorded', SERVED, 'served']);
});

compare('a missing key is 400, an unknown one 404, an unreadable log 422', async () => {
  assert.is(await error(await c.api(`/api/sessions/compare?a=${RECORDED}`), 400), 'b: the key of a session to compare is missing (compare?a=KEY&b=KEY)');
  assert.is(await error(await c.api(`/api/sessions/compare?b=${RECORDED}&a=`), 400), 'a: the key of a session to compare is missing (compare?a=KEY&b=KEY)');
  assert.is(await error(await c.api('/api/sessions/compare'), 400), 'a: the key of a session to compare is missing (compare?a=KEY&b=KEY)');
  assert.is(await error(await c.api(`/api/sessions/compare?a=${RECORDED}&b=nope`), 404), 'no session "nope" (b)');
  assert.is(await error(await c.api(`/api/sessions/compare?a=nope&b=${RECORDED}`), 404), 'no session "nope" (a)');
  writeFileSync(join(c.dataDir, 'logs/shop/broken.jsonl'), '{"not":"a session"}\n');
  assert.match(await error(await c.api(`/api/sessions/compare?a=${RECORDED}&b=broken`), 422), /^logs\/shop\/broken\.jsonl is not a session log engine can read: /);
  assert.is(await error(await c.api('/api/sessions/nope/closest'), 404), 'no session "nope"');
});

compare('a log whose stem is compare gets a hashed key and stays reachable', async () => {
  copyFileSync(join(c.dataDir, 'logs/shop', `${RECORDED}.jsonl`), join(c.dataDir, 'logs/shop/compare.jsonl'));
  const list = v.parse(SessionListSchema, await (await c.api('/api/sessions?limit=500')).json());
  const item = list.items.find((s) => s.path === 'logs/shop/compare.jsonl');
  assert.ok(item);
  assert.match(item!.key, /^compare~[0-9a-f]{8}$/);
  const one = await c.api(`/api/sessions/${encodeURIComponent(item!.key)}`);
  assert.is(one.status, 200);
  assert.is(v.parse(SessionDetailSchema, await one.json()).summary.path, 'logs/shop/compare.jsonl');
  const both = await c.api(`/api/sessions/compare?a=${encodeURIComponent(item!.key)}&b=${RECORDED}`);
  assert.is(v.parse(SessionComparisonSchema, await both.json()).paired, 5);
});

compare('a served session\'s closest recorded session of its domain is the one with the same tools called', async () => {
  const res = await c.api(`/api/sessions/${SERVED}/closest`);
  assert.is(res.status, 200);
  assert.equal(v.parse(ClosestSessionSchema, await res.json()), { key: SERVED, closest: '20260928T020400.710Z-14594', similarity: 1 });
  const retail = v.parse(ClosestSessionSchema, await (await c.api('/api/sessions/20260928T020401.312Z-14780/closest')).json());
  assert.equal(retail, { key: '20260928T020401.312Z-14780', closest: null, similarity: null });
});

compare.run();
