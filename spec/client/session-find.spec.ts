// The session page's view logic (client/src/lib/session-find.ts): filters, find targets in display order,
// the find state in the URL, and the minimap's marks and clicks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallOutline, SessionOutline } from '../../shared/session-views.ts';
import type { FlowDecision } from '../../shared/sessions.ts';
import { entryAt, filterEntries, findParams, findTargets, minimapMarks, NO_FIND, readFindState, timelineOf } from '../../client/src/lib/session-find.ts';

const lib = suite('session find lib');

const call = (n: number, over: Partial<CallOutline> = {}): CallOutline => ({
  n, id: String(n + 10), by: 'agent', tool: n % 2 ? 'get_order' : 'search', kind: 'read', t_ms: 1000 * (n + 1), result_t_ms: 1000 * (n + 1) + 50,
  latency_ms: 50, ok: true, turn: null, after: null, decision: null, arguments_short: '{}', result_short: 'ok', arguments_bytes: 2, result_bytes: 2, ...over,
});
const decision = (after: string, over: Partial<FlowDecision> = {}): FlowDecision => ({
  after, address: 'a', site: 's', action: 'lookup', tool: 'get_order', arguments: {}, prob: 0.9, probs: {}, binding: null, reason: null, shadow: false, ms: null, ...over,
});

/** Four agent calls (the third failed), a lookup after the first, a hand-back after the second, two messages. */
function outline(): Pick<SessionOutline, 'calls' | 'decisions' | 'runs' | 'turns' | 'context'> {
  const calls = [call(0), call(1), call(2, { ok: false }), call(3), call(4, { by: 'flow', after: '10', decision: 0, t_ms: 1100, result_t_ms: 1150, tool: 'get_order' })];
  return {
    calls,
    decisions: [decision('10'), decision('11', { action: 'hand_back', tool: null })],
    runs: [],
    turns: [0, 1, 2, 3].map((i) => ({ index: i, start_ms: 1000 * (i + 1), end_ms: 1000 * (i + 1) + 50, calls: [String(i + 10)] })),
    context: [
      { t_ms: 10, role: 'user', content: 'hello' },
      { t_ms: 9000, role: 'assistant', content: 'bye' },
    ],
  };
}

lib('filters narrow the turns and drop the conversation', () => {
  const all = timelineOf(outline());
  assert.is(all.length, 6);
  const tools = (es: ReturnType<typeof timelineOf>): (string | number)[] => es.flatMap((e): (string | number)[] => (e.type === 'turn' ? e.calls.map((c) => c.call.n) : [`m${e.message.index}`]));
  assert.equal(tools(filterEntries(all, 'all', NO_FIND)), ['m0', 0, 1, 2, 3, 'm1']);
  // A tool keeps the calls of that tool and those with a lookup of it.
  assert.equal(tools(filterEntries(all, 'all', { ...NO_FIND, tool: 'get_order' })), [0, 1, 3]);
  assert.equal(tools(filterEntries(all, 'all', { ...NO_FIND, failed: true })), [2]);
  assert.equal(tools(filterEntries(all, 'all', { ...NO_FIND, flow: true })), [0, 1]);
  assert.equal(tools(filterEntries(all, 'all', { ...NO_FIND, flow: true, tool: 'search' })), [0]);
  assert.equal(tools(filterEntries(all, 'conversation', NO_FIND)), ['m0', 'm1']);
});

lib('find targets come in display order, lookups after their call, only among shown entries', () => {
  const all = timelineOf(outline());
  const matches = [
    { kind: 'message' as const, index: 1, fields: ['text' as const] },
    { kind: 'call' as const, n: 4, fields: ['tool' as const] },
    { kind: 'call' as const, n: 0, fields: ['result' as const] },
    { kind: 'call' as const, n: 3, fields: ['tool' as const] },
  ];
  assert.equal(findTargets(all, matches), [
    { entry: 1, key: 'c0' },
    { entry: 1, key: 'c4' },
    { entry: 4, key: 'c3' },
    { entry: 5, key: 'm1' },
  ]);
  assert.equal(findTargets(filterEntries(all, 'all', { ...NO_FIND, failed: true }), matches), []);
});

lib('the find state round-trips through the URL, one-based there', () => {
  const s = { q: 'magic word', tool: 'get_order', failed: true, flow: false, match: 2 };
  const params = findParams(s);
  assert.equal(params, { find: 'magic word', tool: 'get_order', failed: '1', flow: undefined, match: '3' });
  assert.equal(readFindState(params as Record<string, string>), s);
  assert.equal(readFindState({}), NO_FIND);
  assert.equal(readFindState({ match: 'x' }), NO_FIND);
  assert.equal(findParams(NO_FIND), { find: undefined, tool: undefined, failed: undefined, flow: undefined, match: undefined });
});

lib('minimap marks sit to scale by time; a click finds the nearest shown entry', () => {
  const all = timelineOf(outline());
  const marks = minimapMarks(all, 10_000, findTargets(all, [{ kind: 'call', n: 3, fields: ['tool'] }]));
  const at = (kind: string) => marks.filter((m) => m.kind === kind).map((m) => [m.at, m.entry]);
  assert.equal(at('call'), [[0.1, 1], [0.2, 2], [0.4, 4]]);
  assert.equal(at('error'), [[0.3, 3]]);
  assert.equal(at('lookup'), [[0.11, 1]]);
  assert.equal(at('back'), [[0.205, 2]]);
  assert.equal(at('match'), [[0.4, 4]]);
  assert.is(entryAt(all, 10_000, 0), 0);
  assert.is(entryAt(all, 10_000, 0.29), 3);
  assert.is(entryAt(all, 10_000, 1), 5);
  assert.is(entryAt([], 10_000, 0.5), -1);
});

lib.run();
