// The index keeps a summary's numbers as the worker counted them, whatever their size (its columns hold
// doubles), and shares one list per distinct set of a flow log's counts by site.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import type { IndexedSummary } from '../../server/engine/sessions.ts';
import * as v from 'valibot';
import { listSessions } from '../../server/engine/session-list.ts';
import { SessionsQuerySchema } from '../../shared/sessions.ts';
import { SessionIndex } from '../../server/store/session-index.ts';
import { check } from '../props/check.ts';

const s = suite('session index');

const COUNTS = ['duration_ms', 'tool_calls', 'llm_turns', 'errors', 'flow_lookups', 'hand_backs', 'shadow_lookups', 'writes', 'size_bytes'] as const;
type Counts = Record<(typeof COUNTS)[number] | 'shadow_decisions', number>;

function summary(c: Counts): IndexedSummary {
  return {
    key: '',
    path: '',
    session_id: '20261127T100000.000Z-1',
    domain: 'shop',
    agent: null,
    upstream: null,
    started_unix_ms: Date.UTC(2026, 10, 27, 10),
    mode: 'recorded',
    has_flow_log: false,
    has_confirm_log: false,
    tools_called: [],
    ...c,
  };
}

s('every number of a summary is kept exactly: small ones, and those past 32 bits', async () => {
  // Whole numbers of every size a log can give (up to 2^53), as doubles from the worker's typed arrays.
  const n = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 + 10 }), fc.constantFrom(2 ** 30 - 1, 2 ** 30, 2 ** 31, 2 ** 32 + 3, 2 ** 53 - 1), fc.maxSafeNat());
  const counts = fc.record(Object.fromEntries([...COUNTS, 'shadow_decisions'].map((k) => [k, n])) as Record<keyof Counts, fc.Arbitrary<number>>);
  await check(
    fc.property(counts, (c) => {
      const index = new SessionIndex();
      const [entry] = index.add('/data', [{ rel: 'logs/shop/a.jsonl', name: 'a.jsonl', flowLog: false, confirmLog: false }]);
      index.apply(entry!, 'stamp', 1_795_000_000_000.5, { ok: true, value: summary(c) }, 123.4);
      const kept = index.readable[0]!;
      for (const k of COUNTS) assert.is(kept.summary[k], c[k], k);
      assert.is(kept.shadowDecisions, c.shadow_decisions, 'shadow_decisions');
      assert.is(kept.mtimeMs, 1_795_000_000_000.5, 'the modification time, not rounded');
    }),
    300,
  );
});

s("sessions whose flow logs show the same counts by site share one list; any other count gets its own", () => {
  const index = new SessionIndex();
  const logs = ['a', 'b', 'c', 'd'].map((n) => ({ rel: `logs/shop/${n}.jsonl`, name: `${n}.jsonl`, flowLog: true, confirmLog: false }));
  const entries = index.add('/data', logs);
  const sites = (lookups: number) => [
    { site: '', lookups: 0, hand_backs: 1, shadow: 0 },
    { site: 'find_user', lookups, hand_backs: 0, shadow: 2 },
  ];
  const zero: Counts = { duration_ms: 0, tool_calls: 0, llm_turns: 0, errors: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, writes: 0, size_bytes: 0, shadow_decisions: 0 };
  const lists = [sites(3), sites(3), sites(4), undefined];
  entries.forEach((e, i) => {
    const value = summary(zero);
    if (lists[i] !== undefined) value.flow_sites = lists[i];
    index.apply(e, 'stamp', 0, { ok: true, value }, 0);
  });
  const [a, b, c, d] = entries.map((e) => e.flowSites);
  assert.ok(a === b, 'equal counts: one list');
  assert.ok(a !== c, 'another count: its own list');
  assert.equal(a, sites(3));
  assert.equal(c, sites(4));
  assert.is(d, null, 'no decision: no list');
});

s('site names holding any text never make two different lists one', () => {
  const index = new SessionIndex();
  const entries = index.add('/data', ['a', 'b'].map((n) => ({ rel: `logs/shop/${n}.jsonl`, name: `${n}.jsonl`, flowLog: true, confirmLog: false })));
  const zero: Counts = { duration_ms: 0, tool_calls: 0, llm_turns: 0, errors: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, writes: 0, size_bytes: 0, shadow_decisions: 0 };
  // Joined with NUL separators, these two lists would read the same.
  const one = [{ site: 'x\u00001,0,0\u0000y', lookups: 2, hand_backs: 0, shadow: 0 }];
  const two = [
    { site: 'x', lookups: 1, hand_backs: 0, shadow: 0 },
    { site: 'y', lookups: 2, hand_backs: 0, shadow: 0 },
  ];
  [one, two].forEach((sites, i) => index.apply(entries[i]!, 'stamp', 0, { ok: true, value: { ...summary(zero), flow_sites: sites } }, 0));
  assert.equal(entries[0]!.flowSites, one);
  assert.equal(entries[1]!.flowSites, two);
});

s('q finds ids of every kind among more sessions than the first rows hold, as the engine does, through re-reads and removals', () => {
  const index = new SessionIndex();
  const n = 2_500;
  const logs = Array.from({ length: n }, (_, i) => ({ rel: `logs/shop/${i}.jsonl`, name: `${i}.jsonl`, flowLog: false, confirmLog: false }));
  const zero: Counts = { duration_ms: 0, tool_calls: 0, llm_turns: 0, errors: 0, flow_lookups: 0, hand_backs: 0, shadow_lookups: 0, writes: 1, size_bytes: 0, shadow_decisions: 0 };
  // Engine ids, ids too long for a slot, ids with a newline, and ids a lowercasing lengthens.
  const idOf = (i: number, round: number) =>
    [`2026112${round}T1${i % 10}0000.000Z-${i}`, `A-Session-Id-Of-Another-Engine-Named-${i}`, `Line\nBreak-${i}`, `İd-${i}`][(i + round) % 4]!;
  const model = new Map<number, IndexedSummary>();
  const read = (i: number, round: number) => {
    const value = { ...summary(zero), surprised: false, session_id: idOf(i, round), started_unix_ms: Date.UTC(2026, 10, 27, 10) + ((i * 7_919) % n) };
    index.apply(entries[i]!, 'stamp', 0, { ok: true, value }, 0);
    model.set(i, value);
  };
  // Some read before the rest come, so the columns grow under ids already kept.
  const entries = index.add('/data', logs.slice(0, 1_000));
  for (let i = 0; i < 1_000; i++) read(i, 0);
  entries.push(...index.add('/data', logs.slice(1_000)));
  for (let i = 1_000; i < n; i++) read(i, 0);
  // Re-read a third under other ids, make some unreadable, remove some (their rows go to no one).
  for (let i = 0; i < n; i += 3) read(i, 1);
  for (let i = 1; i < n; i += 7) {
    index.apply(entries[i]!, 'stamp', 0, { ok: false, message: 'no' }, 0);
    model.delete(i);
  }
  for (let i = 2; i < n; i += 11) {
    index.remove(logs[i]!.rel);
    model.delete(i);
  }
  const summaries = [...model].map(([i, value]) => ({ ...value, key: index.byRel.get(logs[i]!.rel)!.key, path: logs[i]!.rel }));
  for (const q of ['z-12', '0z-1', 'engine-named-24', 'a-session-id-of-another-engine-named-2', 'line\nbreak-1', 'i̇d-7', '20261121t1', 'shop', 'nowhere']) {
    const query = v.parse(SessionsQuerySchema, { q, limit: '1000' });
    const got = index.list(query);
    assert.equal(got, listSessions(summaries, query), q);
    if (q !== 'nowhere') assert.ok(got.total > 0, `${q} matches some`);
  }
});

s.run();
