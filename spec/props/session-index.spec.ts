// The index keeps summaries as rows of columns and makes a summary object only when asked. Whatever logs
// come, are read again, stop reading or go (their rows then taken by others), it must list exactly what the
// engine's own list gives over the same summaries, for any query, its tallies must add up the same, and its
// keys be those the engine gives the logs there.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import * as v from 'valibot';
import { type SessionSummary, SessionsQuerySchema } from '../../shared/sessions.ts';
import { assignKeys, keyBase, RESERVED_SESSION_KEYS } from '../../server/engine/keys.ts';
import { listSessions } from '../../server/engine/session-list.ts';
import type { IndexedSummary } from '../../server/engine/sessions.ts';
import { Tallies } from '../../server/engine/tallies.ts';
import { SessionIndex } from '../../server/store/session-index.ts';
import { check } from './check.ts';

const s = suite('props: the columnar session index');

const RELS = ['logs/shop/A.jsonl', 'logs/shop/b.jsonl', 'logs/travel/A.jsonl', 'served/A.jsonl', 'served/shop/c.jsonl', 'shadow/x/İd.jsonl', 'shadow/y/Ğd.jsonl', 'logs/otlp.jsonl'];
const stemOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1, -'.jsonl'.length);

const summaryArb = (rel: string): fc.Arbitrary<IndexedSummary> =>
  fc.record({
    session_id: fc.constantFrom(stemOf(rel), 'Other-ID', '20261127T100000.000Z-1', 'İd'),
    domain: fc.constantFrom(null, 'shop', 'travel', 'İstanbul'),
    agent: fc.constantFrom(null, 'Claude', 'gpt'),
    started_unix_ms: fc.constantFrom(Date.UTC(2026, 10, 27, 10), Date.UTC(2026, 10, 27, 23, 59), Date.UTC(2026, 10, 28, 0, 1), 1.5e15),
    duration_ms: fc.nat(10),
    mode: fc.constantFrom('recorded', 'shadow', 'served') as fc.Arbitrary<IndexedSummary['mode']>,
    tool_calls: fc.nat(3),
    llm_turns: fc.nat(3),
    errors: fc.nat(2),
    flow_lookups: fc.nat(2),
    hand_backs: fc.nat(2),
    shadow_lookups: fc.nat(2),
    surprised: fc.boolean(),
    writes: fc.nat(2),
    upstream: fc.constantFrom(null, { kind: 'http' as const, url: 'http://a' }, { kind: 'stdio' as const, command: ['srv', '--x'] }),
    size_bytes: fc.nat(5000),
    has_flow_log: fc.boolean(),
    has_confirm_log: fc.boolean(),
    tools_called: fc.subarray(['Find_User', 'refund', 'engine_commit']),
    shadow_decisions: fc.nat(3),
  }).map((x) => ({ ...x, key: '', path: rel }) as IndexedSummary);

type Op = { kind: 'add'; rel: string } | { kind: 'read'; rel: string; value: IndexedSummary } | { kind: 'fail'; rel: string } | { kind: 'remove'; rel: string };
const readArb = (rel: string): fc.Arbitrary<Op> => summaryArb(rel).map<Op>((value) => ({ kind: 'read', rel, value }));
const opArb: fc.Arbitrary<Op> = fc.constantFrom(...RELS).chain((rel) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'add', rel }) },
    { weight: 3, arbitrary: readArb(rel) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'fail', rel }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'remove', rel }) },
  ),
);
/** Every log added and read first, then anything. */
const opsArb = fc
  .tuple(fc.tuple(...RELS.map(readArb)), fc.array(opArb, { maxLength: 40 }))
  .map(([reads, rest]) => [...RELS.map((rel): Op => ({ kind: 'add', rel })), ...reads, ...rest]);

const QUERY_VALUES = {
  domain: fc.constantFrom('shop', 'travel', 'İstanbul', 'none'),
  mode: fc.constantFrom('recorded', 'shadow', 'served'),
  q: fc.constantFrom('a', 'i', 'İ', 'id', 'find', 'shop', 'z-1', 'CLAUDE', 'x'),
  from: fc.constantFrom('2026-11-27', '2026-11-28'),
  to: fc.constantFrom('2026-11-28', '2026-12-01'),
  since: fc.constantFrom(String(Date.UTC(2026, 10, 27, 12))),
  agent: fc.constantFrom('Claude', 'gpt'),
  tool: fc.constantFrom('refund', 'Find_User'),
  has: fc.constantFrom('tool_calls', 'errors', 'surprised', 'shadow_decisions,flow_lookups'),
  sort: fc.constantFrom('started', 'session', 'domain', 'calls', 'duration'),
  order: fc.constantFrom('asc', 'desc'),
  offset: fc.constantFrom('0', '1', '3'),
  limit: fc.constantFrom('1', '2', '50'),
};
// A few filters at a time: with every one of them at once, hardly a session would pass.
const queryArb = fc
  .tuple(fc.subarray(Object.keys(QUERY_VALUES) as (keyof typeof QUERY_VALUES)[], { maxLength: 2 }), fc.record(QUERY_VALUES))
  .map(([keys, values]) => Object.fromEntries(keys.map((k) => [k, values[k]])));

s('lists, counts and tallies as the engine does over the same summaries, through re-reads and removals', async () => {
  await check(
    fc.property(opsArb, fc.array(queryArb, { minLength: 4, maxLength: 12 }), fc.nat(6), fc.constantFrom(1, 2, 32), (ops, queries, run, mergeFrom) => {
      const index = new SessionIndex({ mergeFrom });
      const model = new Map<string, IndexedSummary | null>();
      const removed: { entry: ReturnType<SessionIndex['remove']>; summary: SessionSummary | null }[] = [];
      const step = (op: Op): void => {
        if (op.kind === 'add') {
          index.add('/data', [{ rel: op.rel, name: op.rel.slice(op.rel.lastIndexOf('/') + 1), flowLog: false, confirmLog: false }]);
          if (!model.has(op.rel)) model.set(op.rel, null);
          return;
        }
        const entry = index.byRel.get(op.rel);
        if (entry === undefined) return;
        if (op.kind === 'remove') {
          const before = entry.summary;
          removed.push({ entry: index.remove(op.rel), summary: before });
          model.delete(op.rel);
        } else if (op.kind === 'read') {
          index.apply(entry, 'stamp', 0, { ok: true, value: op.value }, 0);
          model.set(op.rel, op.value);
        } else {
          index.apply(entry, 'stamp', 0, { ok: false, message: 'no' }, 0);
          model.set(op.rel, null);
        }
      };
      // Runs of answers applied at once are placed in one merge at the run's end (`placing`), as the feeder applies them.
      if (run === 0) ops.forEach(step);
      else for (let i = 0; i < ops.length; i += run) index.placing(() => ops.slice(i, i + run).forEach(step));
      // The engine's list over the model's summaries, under the keys the index gave.
      const summaries: IndexedSummary[] = [];
      for (const [rel, value] of model) if (value !== null) summaries.push({ ...value, key: index.byRel.get(rel)!.key, path: rel });
      for (const raw of queries) {
        const query = v.parse(SessionsQuerySchema, raw);
        assert.equal(index.list(query), listSessions(summaries, query), JSON.stringify(raw));
        // Every match as entries, in the same order (the OTLP export of a list).
        const all = { ...query, offset: 0, limit: Number.MAX_SAFE_INTEGER };
        assert.equal(
          index.matching(all).map((e) => e.summary),
          listSessions(summaries, all).items,
          `matching ${JSON.stringify(raw)}`,
        );
      }
      assert.equal(index.readable.length, summaries.length);
      const cells = (t: Tallies) => [...t.cells()].map((c) => JSON.stringify(c)).sort();
      const expected = new Tallies();
      for (const x of summaries) expected.add(x, x.shadow_decisions);
      assert.equal(cells(index.tallies), cells(expected), 'tallies');
      // Keys as the engine gives them over the logs there now, whatever came and went.
      const rels = [...model.keys()];
      const stems = rels.map((rel) => ({ stem: stemOf(rel), rel }));
      const bases = stems.map(({ stem }) => keyBase(stem));
      rels.forEach((rel, i) => {
        const group = stems.filter((_, j) => bases[j] === bases[i]);
        const expected = assignKeys(group, RESERVED_SESSION_KEYS)[group.findIndex((g) => g.rel === rel)];
        assert.is(index.byRel.get(rel)!.key, expected, rel);
        assert.is(index.byKey.get(expected!), index.byRel.get(rel), `by key ${expected}`);
      });
      assert.is(index.byKey.size, rels.length, 'one key a log');
      // A removed entry still shows what it showed, though its row is another log's now.
      for (const r of removed) assert.equal(r.entry?.summary ?? null, r.summary);
    }),
    400,
  );
});

s.run();
