// The index's running sums (engine/tallies.ts kept by store/session-index.ts) against the same figures
// counted afresh from the sessions it lists, after any sequence of logs added, summarized, re-summarized,
// failing and removed: the overview's totals, days and domains, the savings, the servers' counts and the
// discovered upstreams must never drift from a recount.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { DAY_MS } from '../../shared/limits.ts';
import type { SessionMode, UpstreamView } from '../../shared/sessions.ts';
import { discoveredUpstreams } from '../../server/data/registry.ts';
import { activity, countsOf, totalsAndDomains } from '../../server/engine/overview.ts';
import { savings } from '../../server/engine/savings.ts';
import type { IndexedSummary } from '../../server/engine/sessions.ts';
import { Tallies, type TallyCell } from '../../server/engine/tallies.ts';
import { SessionIndex } from '../../server/store/session-index.ts';
import { check } from '../props/check.ts';

const s = suite('tallies');

const NOW = Date.UTC(2026, 10, 27, 12);
const UPSTREAMS: (UpstreamView | null)[] = [null, { kind: 'stdio', command: ['shop-mcp'] }, { kind: 'stdio', command: ['shop-mcp', '--x'] }, { kind: 'http', url: 'http://u' }];
const MODES: SessionMode[] = ['recorded', 'shadow', 'served'];

interface Made {
  domain: string | null;
  upstream: number;
  mode: number;
  /** Minutes before NOW (a few of them share one start). */
  ago: number;
  calls: number;
  shadow: number;
}

function summary(id: string, m: Made): IndexedSummary {
  return {
    key: '',
    path: '',
    session_id: id,
    domain: m.domain,
    agent: null,
    // Fresh objects each time: the index shares one per upstream, the tally must not depend on that.
    upstream: UPSTREAMS[m.upstream] === null ? null : structuredClone(UPSTREAMS[m.upstream]!),
    started_unix_ms: NOW - m.ago * 60_000,
    duration_ms: 5,
    mode: MODES[m.mode]!,
    tool_calls: m.calls,
    llm_turns: m.calls + 1,
    errors: m.calls % 2,
    flow_lookups: m.calls % 3,
    hand_backs: m.calls % 4,
    shadow_lookups: 0,
    writes: 0,
    size_bytes: 100,
    has_flow_log: false,
    has_confirm_log: false,
    tools_called: [],
    shadow_decisions: m.shadow,
  };
}

const made = fc.record({
  domain: fc.constantFrom<string | null>('shop', 'shop', 'retail', null),
  upstream: fc.oneof(fc.constant(1), fc.nat(UPSTREAMS.length - 1)),
  mode: fc.nat(2),
  // Over ~3 days, on a coarse grid, so that cells hold several sessions and starts (newest ones too) are shared.
  ago: fc.nat(30).map((n) => n * 150),
  calls: fc.nat(9),
  shadow: fc.nat(3),
});

const op = fc.oneof(
  fc.record({ kind: fc.constant('summarize' as const), log: fc.nat(11), made }),
  fc.record({ kind: fc.constant('fail' as const), log: fc.nat(11) }),
  fc.record({ kind: fc.constant('remove' as const), log: fc.nat(11) }),
);

const cellText = (c: TallyCell) =>
  JSON.stringify([c.domain, c.upstream, c.day, c.mode, c.sessions, c.tool_calls, c.flow_lookups, c.hand_backs, c.errors, c.llm_turns, c.shadow_decisions, c.last]);
const cellsOf = (t: Tallies) => [...t.cells()].map(cellText).sort();

s('the index\'s tallies equal a recount of the sessions it lists, whatever came and went', async () => {
  await check(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const index = new SessionIndex();
      for (const o of ops) {
        const rel = `logs/shop/s${o.log}.jsonl`;
        if (o.kind === 'remove') {
          index.remove(rel);
          continue;
        }
        if (!index.byRel.has(rel)) index.add('/home', [{ rel, name: `s${o.log}.jsonl`, flowLog: false, confirmLog: false }]);
        const entry = index.byRel.get(rel)!;
        const result = o.kind === 'fail' ? ({ ok: false, message: 'torn' } as const) : ({ ok: true, value: summary(`s${o.log}`, o.made) } as const);
        index.apply(entry, `stamp${Math.random()}`, 0, result, 0);
      }
      const listed = index.readable;
      const fresh = new Tallies();
      for (const e of listed) fresh.add(e.summary, e.shadowDecisions);
      assert.equal(cellsOf(index.tallies), cellsOf(fresh));

      const summaries = listed.map((e) => e.summary);
      const counts = { tallies: index.tallies, startedSince: (ms: number) => index.startedSince(ms) };
      const shadow = listed.reduce((n, e) => n + e.shadowDecisions, 0);
      assert.is(index.tallies.shadowDecisions(), shadow);
      const inputs = { shadowDecisions: shadow, flows: [{ key: 'shop', domain: 'shop' }], servers: ['travel', 'air'] };
      assert.equal(totalsAndDomains({ ...inputs, sessions: counts }, NOW), totalsAndDomains({ ...inputs, sessions: summaries }, NOW));
      assert.equal(activity(index.tallies, NOW), activity(summaries, NOW));
      for (const domain of [null, 'shop']) assert.equal(savings(index.tallies, { days: 14, domain, now: NOW }), savings(summaries, { days: 14, domain, now: NOW }));
      assert.equal(discoveredUpstreams(index.tallies, new Set(['shop'])), discoveredUpstreams(summaries, new Set(['shop'])));
      for (const ms of [NOW - 7 * DAY_MS, NOW - 3600_000, NOW + 1]) assert.is(index.startedSince(ms), countsOf(summaries).startedSince(ms));
      for (const domain of ['shop', 'retail', 'air']) {
        const own = summaries.filter((x) => x.domain === domain);
        assert.equal(index.tallies.domain(domain), { count: own.length, last_unix_ms: own.length ? Math.max(...own.map((x) => x.started_unix_ms)) : null });
      }
      const failing = [...index.byRel.values()].filter((e) => e.error !== null).map((e) => e.rel).sort();
      assert.equal(index.unreadable().map((e) => e.rel).sort(), failing);
    }),
    600,
  );
});

s('when the newest session of a day leaves, the domain\'s newest start is found again from the list', () => {
  const index = new SessionIndex();
  const logs = ['a', 'b', 'c'].map((n) => ({ rel: `logs/shop/${n}.jsonl`, name: `${n}.jsonl`, flowLog: false, confirmLog: false }));
  index.add('/home', logs);
  const m = (ago: number): Made => ({ domain: 'shop', upstream: 1, mode: 0, ago, calls: 1, shadow: 0 });
  ['a', 'b', 'c'].forEach((n, i) => index.apply(index.byRel.get(`logs/shop/${n}.jsonl`)!, 's', 0, { ok: true, value: summary(n, m(i * 10)) }, 0));
  assert.equal(index.tallies.domain('shop'), { count: 3, last_unix_ms: NOW });
  index.remove('logs/shop/a.jsonl');
  assert.equal(index.tallies.domain('shop'), { count: 2, last_unix_ms: NOW - 10 * 60_000 });
  // Re-summarized with an older start: it leaves its place, and the newest is the next one.
  index.apply(index.byRel.get('logs/shop/b.jsonl')!, 's2', 0, { ok: true, value: summary('b', m(30)) }, 0);
  assert.equal(index.tallies.domain('shop'), { count: 2, last_unix_ms: NOW - 20 * 60_000 });
  assert.equal(index.tallies.domain('retail'), { count: 0, last_unix_ms: null });
});

s.run();
