// Savings over the session index (shared/savings.ts defines every figure). Pure: the sessions' tally
// (engine/tallies.ts), the period and "now" in; one pass over its cells.
import type { PerSession, Savings, SavingsDay, SavingsDomain, SavingsQuery, ServedFigures } from '../../shared/savings.ts';
import { DAY_MS } from '../../shared/limits.ts';
import { type Tallied, type TallyCell, Tallies, tallied } from './tallies.ts';

/** The savings query at a given "now". */
export interface SavingsQueryAt extends SavingsQuery {
  now: number;
}

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const noFigures = (): ServedFigures => ({ served_sessions: 0, lookups: 0, calls: 0, llm_turns: 0, hand_backs: 0 });

function addServed(f: ServedFigures, c: TallyCell): void {
  f.served_sessions += c.sessions;
  f.lookups += c.flow_lookups;
  f.calls += c.tool_calls;
  f.llm_turns += c.llm_turns;
  f.hand_backs += c.hand_backs;
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

export function savings(sessions: Tallies | readonly Tallied[], q: SavingsQueryAt): Savings {
  const first = dayStart(q.now) - (q.days - 1) * DAY_MS;
  const end = dayStart(q.now) + DAY_MS;
  const firstDay = first / DAY_MS;
  const lastDay = end / DAY_MS - 1;
  const tallies = new Map<string, Tally>();
  if (q.domain !== null) tallies.set(q.domain, newTally());
  const total = newTally();

  for (const c of tallied(sessions).cells()) {
    if (c.domain === null || c.day < firstDay || c.day > lastDay) continue;
    if (q.domain !== null && c.domain !== q.domain) continue;
    if (c.mode !== 'served' && c.mode !== 'recorded') continue;
    let t = tallies.get(c.domain);
    if (!t) {
      t = newTally();
      tallies.set(c.domain, t);
    }
    // The totals' recorded sessions are added below, from the domains that were served.
    for (const into of c.mode === 'recorded' ? [t] : [t, total]) {
      if (c.mode === 'recorded') {
        into.recorded.sessions += c.sessions;
        into.recorded.calls += c.tool_calls;
        into.recorded.llm_turns += c.llm_turns;
      } else {
        addServed(into.served, c);
        const i = c.day - firstDay;
        let day = into.daily.get(i);
        if (!day) {
          day = noFigures();
          into.daily.set(i, day);
        }
        addServed(day, c);
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
