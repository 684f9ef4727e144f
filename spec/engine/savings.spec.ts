// engine/savings.ts alone, over the fixture sessions (read in place) and small made-up summaries.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { savings } from '../../server/engine/savings.ts';
import { sessionSummary } from '../../server/engine/sessions.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { fixtureSessions } from './session-files.ts';
import { SHOP_SAVINGS } from '../support/savings-shop.ts';

/** Noon, three days after the fixture sessions (all on 2026-09-28 UTC). */
const NOW = Date.UTC(2026, 9, 1, 12);
const all = () => fixtureSessions().map((f) => sessionSummary(f));

const s = suite('savings');

s('over the fixture days: shop served twice, its six recorded sessions the baseline; retail never served', () => {
  const r = savings(all(), { days: 14, domain: null, now: NOW });
  assert.equal([r.start_unix_ms, r.end_unix_ms], [Date.UTC(2026, 8, 18), Date.UTC(2026, 9, 2)]);
  assert.equal(r.domains, [
    {
      domain: 'retail',
      served_sessions: 0,
      lookups: 0,
      calls: 0,
      llm_turns: 0,
      hand_backs: 0,
      recorded_sessions: 1,
      with_flow: { calls: null, llm_turns: null },
      without_flow: { calls: 5, llm_turns: 7 },
      saved: { calls: null, llm_turns: null },
    },
    SHOP_SAVINGS,
  ]);
  // The totals leave out retail's recorded session: it was never served, so it is no baseline.
  assert.equal({ ...r.totals, domain: 'shop' }, r.domains[1]);
  assert.is(r.totals.domain, '');
  // Every day for every domain, oldest first; only 2026-09-28 of shop has served sessions.
  assert.is(r.daily.length, 28);
  assert.equal(r.daily[0], { date: '2026-09-18', start_unix_ms: Date.UTC(2026, 8, 18), domain: 'retail', served_sessions: 0, lookups: 0, calls: 0, llm_turns: 0, hand_backs: 0 });
  assert.equal(
    r.daily.filter((d) => d.served_sessions > 0),
    [{ date: '2026-09-28', start_unix_ms: Date.UTC(2026, 8, 28), domain: 'shop', served_sessions: 2, lookups: 6, calls: 3, llm_turns: 6, hand_backs: 3 }],
  );
  assert.is(r.daily.at(-1)!.date, '2026-10-01');
});

s('one domain asked for is always listed, even with nothing in the period', () => {
  const shop = savings(all(), { days: 14, domain: 'shop', now: NOW });
  assert.equal(shop.domains.map((d) => d.domain), ['shop']);
  assert.is(shop.daily.length, 14);
  assert.equal(shop.totals.with_flow, shop.domains[0]!.with_flow);
  const none = savings(all(), { days: 3, domain: 'nowhere', now: NOW });
  assert.equal(none.domains.map((d) => [d.domain, d.served_sessions, d.recorded_sessions]), [['nowhere', 0, 0]]);
  assert.is(none.daily.length, 3);
});

s('the period is the last N UTC days with today; older sessions and shadow sessions are left out', () => {
  // Three days from 2026-10-01 start on 2026-09-29: the fixture sessions are older.
  const r = savings(all(), { days: 3, domain: null, now: NOW });
  assert.equal(r.domains, []);
  assert.is(r.daily.length, 0);
  const one = (mode: SessionSummary['mode'], started: number, domain: string | null = 'd'): SessionSummary => ({
    ...all()[0]!,
    domain,
    mode,
    started_unix_ms: started,
    tool_calls: 2,
    llm_turns: 3,
    flow_lookups: 1,
    hand_backs: 1,
  });
  const today = Date.UTC(2026, 9, 1);
  const t = savings([one('served', today), one('shadow', today), one('served', today - 1), one('served', today, null), one('recorded', today + 86_399_999)], {
    days: 1,
    domain: null,
    now: NOW,
  });
  assert.equal(t.domains.map((d) => [d.domain, d.served_sessions, d.recorded_sessions]), [['d', 1, 1]]);
  assert.equal(t.domains[0]!.saved, { calls: 0, llm_turns: 0 });
});

s.run();
