// Pure helpers of the savings card: the sentence that sums a domain (or all) up, the bars' common scale, and
// the days worth a table row.
import type { SavingsDay, SavingsDomain } from '../../../shared/savings.ts';

/** One decimal, no trailing .0: 1.5, 3, 4.7. */
export function perSession(n: number | null): string {
  if (n === null) return '—';
  const r = Math.round(n * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

/** What the figures say, in one sentence a person reads first. */
export function savingsSentence(d: SavingsDomain, days: number): string {
  const period = `the last ${days} ${days === 1 ? 'day' : 'days'}`;
  if (d.served_sessions === 0) return `No session was served with a flow in ${period}.`;
  const served = `${d.served_sessions} served ${d.served_sessions === 1 ? 'session' : 'sessions'} averaged ${perSession(d.with_flow.calls)} agent calls and ${perSession(d.with_flow.llm_turns)} LLM turns`;
  if (d.recorded_sessions === 0 || d.saved.calls === null || d.saved.llm_turns === null) {
    return `In ${period}, ${served}; no recorded session of the same domain to compare with.`;
  }
  const word = (n: number, what: string) => {
    if (Math.abs(n) < 0.05) return `the same ${what}s`;
    const v = perSession(Math.abs(n));
    return `${v} ${v === '1' ? what : `${what}s`} ${n > 0 ? 'fewer' : 'more'}`;
  };
  return `In ${period}, ${served}, against ${perSession(d.without_flow.calls)} and ${perSession(d.without_flow.llm_turns)} in ${d.recorded_sessions} recorded ${d.recorded_sessions === 1 ? 'session' : 'sessions'}: ${word(d.saved.calls, 'call')} and ${word(d.saved.llm_turns, 'turn')} per session.`;
}

/** A bar's length as a share of the longest (0 to 100), the scale shared by every bar of one chart. */
export function barPercent(value: number | null, longest: number): number {
  if (value === null || !(longest > 0)) return 0;
  return Math.max(0, Math.min(100, (value / longest) * 100));
}

/** The longest per-session figure among the domains, for one scale. */
export function longestBar(domains: readonly SavingsDomain[], field: 'calls' | 'llm_turns'): number {
  let max = 0;
  for (const d of domains) max = Math.max(max, d.with_flow[field] ?? 0, d.without_flow[field] ?? 0);
  return max;
}

/** The table's days: those with a served session, newest first. */
export const servedDays = (daily: readonly SavingsDay[]) => daily.filter((d) => d.served_sessions > 0).reverse();
