// engine/compare.ts alone: the alignment of two sessions (fixture logs read in place, and small made-up
// views for the edge cases), and the choice of the closest recorded session.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { alignSides, closestRecorded, compareSessions, sideOf } from '../../server/engine/compare.ts';
import { indexedSession, sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import type { CallView, FlowDecision, SessionDetail } from '../../shared/sessions.ts';
import { fixtureHome } from '../support/fixtures.ts';
import { filesAt, fixtureSessions } from './session-files.ts';

const RECORDED = 'logs/shop/20260928T020400.548Z-14457.jsonl';
const SERVED = 'served/shop/20260928T020401.117Z-14662.jsonl';
const SHADOW = 'shadow/shop/20260928T020401.240Z-14750.jsonl';
const detail = (rel: string) => sessionDetail(filesAt(fixtureHome, rel));

/** A row in short: `kind tool` per side, `-` for an empty side, and `=` / `~` for a pair with the same / other arguments. */
const short = (r: ReturnType<typeof compareSessions>['rows'][number]) =>
  `${r.a ? `${r.a.kind} ${r.a.tool ?? r.a.site}` : '-'} ${r.same_arguments === null ? '|' : r.same_arguments ? '=' : '~'} ${r.b ? `${r.b.kind} ${r.b.tool ?? r.b.site}` : '-'}`;

const compare = suite('compare');

compare('a recorded and a served session of shop line up call by call, the lookups beside the agent\'s calls', () => {
  const c = compareSessions(detail(RECORDED), detail(SERVED));
  assert.equal(c.rows.map(short), [
    'agent find_user_id_by_email ~ agent find_user_id_by_email',
    'agent get_user_details ~ lookup get_user_details',
    'agent get_order_details ~ lookup get_order_details',
    'agent get_order_details ~ lookup get_order_details',
    '- | hand_back get_order_details',
    'agent cancel_pending_order ~ agent cancel_pending_order',
    '- | hand_back cancel_pending_order',
  ]);
  assert.is(c.paired, 5);
  assert.equal(c.difference, { llm_turns: -3, tool_calls: -3, errors: 0, duration_ms: -1796, flow_lookups: 3 });
  const lookup = c.rows[1]!.b!;
  assert.equal(
    { call: lookup.call, decision: lookup.decision, site: lookup.site, arguments: lookup.arguments, t_ms: lookup.t_ms, ok: lookup.ok },
    { call: 'engine-1', decision: 0, site: 'find_user_id_by_email', arguments: { user_id: 'user_41' }, t_ms: 10, ok: true },
  );
  const handBack = c.rows[4]!.b!;
  assert.equal(
    { decision: handBack.decision, reason: handBack.reason, t_ms: handBack.t_ms, call: handBack.call },
    { decision: 3, reason: 'get_order_details at 0.05, below 0.3', t_ms: 9, call: null },
  );
  assert.equal(c.a.key, '20260928T020400.548Z-14457');
  assert.equal(c.b.mode, 'served');
});

compare('a session against itself pairs every call with the same arguments', () => {
  const c = compareSessions(detail(SERVED), detail(SERVED));
  assert.equal(c.rows.map(short), [
    'agent find_user_id_by_email = agent find_user_id_by_email',
    'lookup get_user_details = lookup get_user_details',
    'lookup get_order_details = lookup get_order_details',
    'lookup get_order_details = lookup get_order_details',
    'hand_back get_order_details | -',
    '- | hand_back get_order_details',
    'agent cancel_pending_order = agent cancel_pending_order',
    'hand_back cancel_pending_order | -',
    '- | hand_back cancel_pending_order',
  ]);
  assert.is(c.paired, 5);
  assert.equal(c.difference, { llm_turns: 0, tool_calls: 0, errors: 0, duration_ms: 0, flow_lookups: 0 });
});

compare('shadow decisions stand alone after the call they followed', () => {
  const side = sideOf(detail(SHADOW)).map((e) => `${e.item.kind} ${e.item.tool ?? e.item.site}`);
  assert.equal(side, [
    'agent find_user_id_by_email',
    'shadow get_user_details',
    'agent get_user_details',
    'shadow get_order_details',
    'agent get_order_details',
    'shadow get_order_details',
    'agent get_order_details',
    'shadow get_order_details',
    'agent cancel_pending_order',
    'shadow cancel_pending_order',
  ]);
});

function call(id: string, tool: string, args: unknown, by: CallView['by'] = 'agent'): CallView {
  return { id, by, tool, kind: 'read', arguments: args, t_ms: 0, result_t_ms: 0, latency_ms: 0, ok: true, result_text: null, result_json: null, result_truncated: false, turn: null, after: null, decision: null };
}
function view(calls: CallView[], decisions: FlowDecision[] = []): SessionDetail {
  const summary = sessionSummary(filesAt(fixtureHome, RECORDED));
  return { summary, header: {}, tools: [], turns: [], calls, context: [], decisions, runs: [], confirmations: [], events: [], truncated: false };
}

compare('an identical call outweighs two calls of the same tool with other arguments', () => {
  const a = view([call('1', 'get', { id: 1 }), call('2', 'get', { id: 2 })]);
  const b = view([call('1', 'get', { id: 2 }), call('2', 'get', { id: 3 })]);
  assert.equal(compareSessions(a, b).rows.map(short), ['agent get | -', 'agent get = agent get', '- | agent get']);
});

compare('calls of other tools never pair; between pairs a\'s calls come first, then b\'s', () => {
  const a = view([call('1', 'find', {}), call('2', 'x', {}), call('3', 'done', {})]);
  const b = view([call('1', 'find', {}), call('2', 'y', {}), call('3', 'done', {})]);
  assert.equal(compareSessions(a, b).rows.map(short), ['agent find = agent find', 'agent x | -', '- | agent y', 'agent done = agent done']);
  assert.equal(compareSessions(view([]), b).rows.map(short), ['- | agent find', '- | agent y', '- | agent done']);
});

compare('argument order does not matter, and long sessions are aligned greedily in order', () => {
  const a = view([call('1', 'get', { a: 1, b: 2 })]);
  const b = view([call('1', 'get', { b: 2, a: 1 })]);
  assert.is(compareSessions(a, b).rows[0]!.same_arguments, true);
  const long = (n: number, tag: string) => Array.from({ length: n }, (_, i) => call(String(i), i % 2 ? 'even' : 'odd', { i, tag }));
  const big = alignSides(sideOf(view(long(2100, 'a'))), sideOf(view(long(2100, 'b'))));
  assert.is(big.paired, 2100);
  assert.is(big.rows.length, 2100);
});

compare('the closest recorded session shares the most tools called, then the nearest number of calls, then is newest', () => {
  const all = fixtureSessions().map((f) => indexedSession(sessionSummary(f)));
  const served = all.find((s) => s.summary.path === SERVED)!;
  // Every recorded shop session that cancels calls all four tools; the newest of them wins.
  assert.equal(closestRecorded(served, all), { key: served.summary.key, closest: '20260928T020400.710Z-14594', similarity: 1 });
  // This one never cancels: of the two recorded sessions that did not either, both with 4 calls, the newer.
  const other = all.find((s) => s.summary.path === 'served/shop/20260928T020401.195Z-14715.jsonl')!;
  assert.equal(closestRecorded(other, all), { key: other.summary.key, closest: '20260928T020400.650Z-14540', similarity: 1 });
  const retail = all.find((s) => s.summary.domain === 'retail')!;
  assert.equal(closestRecorded(retail, all), { key: retail.summary.key, closest: null, similarity: null });
});

compare.run();
