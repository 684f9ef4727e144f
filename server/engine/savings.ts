// Savings over the session index (shared/savings.ts defines every figure). Pure: the summaries, the period and
// "now" in; one pass over the summaries.
import type { PerSession, Savings, SavingsDay, SavingsDomain, ServedFigures } from '../../shared/savings.ts';
import { DAY_MS } from '../../shared/limits.ts';
import type { SessionSummary } from '../../shared/sessions.ts';

export interface SavingsQuery {
  days: number;
  domain: string | null;
  now: number;
}

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const noFigures = (): ServedFigures => ({ served_sessions: 0, lookups: 0, calls: 0, llm_turns: 0, hand_backs: 0 });

function addServed(f: ServedFigures, s: SessionSummary): void {
  f.served_sessions++;
  f.lookups += s.flow_lookups;
  f.calls += s.tool_calls;
  f.llm_turns += s.llm_turns;
  f.hand_backs += s.hand_backs;
}

interface Tally {
  served: ServedFigures;
  recorded: { sessions: number; calls: number; llm_turns: number };
  /** Served figures per day index. */
  daily: Map<number, ServedFigures>;
}

const per = (total: number, n: number) => (n === 0 ? null : total / n);
const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

function domainRow(domain: string, t: Tally): SavingsDomain {
  const withFlow: PerSession = { calls: per(t.served.calls, t.served.served_sessions), llm_turns: per(t.served.llm_turns, t.served.served_sessions) };
  const without: PerSession = { calls: per(t.recorded.calls, t.recorded.sessions), llm_turns: per(t.recorded.llm_turns, t.recorded.sessions) };
  return {
    domain,
    ...t.served,
    recorded_sessions: t.recorded.sessions,
    with_flow: withFlow,
    without_flow: without,
    saved: { calls: minus(without.calls, withFlow.calls), llm_turns: minus(without.llm_turns, withFlow.llm_turns) },
  };
}

const newTally = (): Tally => ({ served: noFigures(), recorded: { sessions: 0, calls: 0, llm_turns: 0 }, daily: new Map() });

export function savings(summaries: readonly SessionSummary[], q: SavingsQuery): Savings {
  const first = dayStart(q.now) - (q.days - 1) * DAY_MS;
  const end = dayStart(q.now) + DAY_MS;
  const tallies = new Map<string, Tally>();
  if (q.domain !== null) tallies.set(q.domain, newTally());
  const total = newTally();

  for (const s of summaries) {
    if (s.domain === null || s.started_unix_ms < first || s.started_unix_ms >= end) continue;
    if (q.domain !== null && s.domain !== q.domain) continue;
    if (s.mode !== 'served' && s.mode !== 'recorded') continue;
    let t = tallies.get(s.domain);
    if (!t) {
      t = newTally();
      tallies.set(s.domain, t);
    }
    // The totals' recorded sessions are added below, from the domains that were served.
    for (const into of s.mode === 'recorded' ? [t] : [t, total]) {
      if (s.mode === 'recorded') {
        into.recorded.sessions++;
        into.recorded.calls += s.tool_calls;
        into.recorded.llm_turns += s.llm_turns;
      } else {
        addServed(into.served, s);
        const i = Math.floor((s.started_unix_ms - first) / DAY_MS);
        let day = into.daily.get(i);
        if (!day) {
          day = noFigures();
          into.daily.set(i, day);
        }
        addServed(day, s);
      }
    }
  }

  const names = [...tallies.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const t of tallies.values()) {
    if (t.served.served_sessions === 0) continue;
    total.recorded.sessions += t.recorded.sessions;
    total.recorded.calls += t.recorded.calls;
    total.recorded.llm_turns += t.recorded.llm_turns;
  }
  const daily: SavingsDay[] = [];
  for (let i = 0; i < q.days; i++) {
    const start = first + i * DAY_MS;
    for (const name of names) daily.push({ date: isoDay(start), start_unix_ms: start, domain: name, ...(tallies.get(name)!.daily.get(i) ?? noFigures()) });
  }
  return {
    days: q.days,
    domain: q.domain,
    start_unix_ms: first,
    end_unix_ms: end,
    daily,
    domains: names.map((n) => domainRow(n, tallies.get(n)!)),
    totals: domainRow(q.domain ?? '', total),
  };
}
