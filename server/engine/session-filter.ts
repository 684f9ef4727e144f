// The filters and orders beyond the spec (issue 15), as small pure functions the list and the overview call:
// a UTC day range (`from`/`to`, both days included), the domain, the sort of the sessions list, and the
// chart's days over a range. The spec's defaults stay as they were: no range, newest first.
import type { DayActivity } from '../../shared/overview.ts';
import type { SessionHas, SessionSort, SessionSums, SessionSummary, SortOrder } from '../../shared/sessions.ts';
import { DAY_MS, OVERVIEW_DAYS } from '../../shared/limits.ts';
import { dayName } from './overview.ts';
import { type Tallied, Tallies, tallied } from './tallies.ts';

/** The longest chart the overview draws for a range (older days of a longer range are left out). */
export const RANGE_DAYS_MAX = 92;

export interface RangeQuery {
  /** `YYYY-MM-DD`, a UTC day; null for no bound. */
  from?: string | null;
  to?: string | null;
}

/** The UTC day number (days since the epoch) of `YYYY-MM-DD`. */
export const dayNumber = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** Whether a session started within the range: from the start of `from` to the end of `to` (UTC). */
export function startedWithin(range: RangeQuery): (s: Pick<SessionSummary, 'started_unix_ms'>) => boolean {
  const lo = range.from ? dayNumber(range.from) * DAY_MS : -Infinity;
  const hi = range.to ? (dayNumber(range.to) + 1) * DAY_MS : Infinity;
  return (s) => s.started_unix_ms >= lo && s.started_unix_ms < hi;
}

/** The overview's sessions: of the domain (when one is chosen) and within the range. */
export function overviewPredicate(q: RangeQuery & { domain?: string | null }): (s: Pick<SessionSummary, 'domain' | 'started_unix_ms'>) => boolean {
  const within = startedWithin(q);
  return (s) => (!q.domain || s.domain === q.domain) && within(s);
}

/**
 * Newest first: by started_unix_ms, then session_id, both descending; then by path, as the CLI's stable sort
 * of the catalog (sorted by path) leaves them, so the order never depends on which log was indexed first.
 */
export function newestFirst(a: SessionSummary, b: SessionSummary): number {
  if (a.started_unix_ms !== b.started_unix_ms) return b.started_unix_ms - a.started_unix_ms;
  if (a.session_id !== b.session_id) return a.session_id < b.session_id ? 1 : -1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

export interface TraitsQuery {
  since?: number | null;
  agent?: string | null;
  tool?: string | null;
  has?: readonly SessionHas[];
}

/** What the index keeps of a session beside its wire summary. */
export interface SessionFacts {
  tools: readonly string[];
  shadowDecisions: number;
}

const HAS: Record<SessionHas, (s: SessionSummary, f: SessionFacts) => boolean> = {
  tool_calls: (s) => s.tool_calls > 0,
  flow_lookups: (s) => s.flow_lookups > 0,
  shadow_decisions: (_s, f) => f.shadowDecisions > 0,
  errors: (s) => s.errors > 0,
  surprised: (s) => s.surprised === true,
};

/** The filters on a session's own figures (started since, agent, a tool called, `has`); null when none is asked. */
export function traitsPredicate(q: TraitsQuery): ((s: SessionSummary, f: SessionFacts) => boolean) | null {
  const since = q.since ?? null;
  const agent = q.agent || null;
  const tool = q.tool || null;
  const has = (q.has ?? []).map((h) => HAS[h]);
  if (since === null && agent === null && tool === null && has.length === 0) return null;
  return (s, f) =>
    (since === null || s.started_unix_ms >= since) &&
    (agent === null || s.agent === agent) &&
    (tool === null || f.tools.includes(tool)) &&
    has.every((h) => h(s, f));
}

/** The figures the matching sessions add up to (what an overview figure that opened the list counts). */
export function sumsOf(sessions: Iterable<readonly [SessionSummary, number]>): SessionSums {
  const sums: SessionSums = { tool_calls: 0, flow_lookups: 0, shadow_decisions: 0 };
  for (const [s, shadow] of sessions) {
    sums.tool_calls += s.tool_calls;
    sums.flow_lookups += s.flow_lookups;
    sums.shadow_decisions += shadow;
  }
  return sums;
}

const text = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

const KEYS: Record<SessionSort, (a: SessionSummary, b: SessionSummary) => number> = {
  started: (a, b) => a.started_unix_ms - b.started_unix_ms,
  session: (a, b) => text(a.session_id, b.session_id),
  domain: (a, b) => text(a.domain, b.domain),
  agent: (a, b) => text(a.agent, b.agent),
  mode: (a, b) => text(a.mode, b.mode),
  calls: (a, b) => a.tool_calls - b.tool_calls,
  turns: (a, b) => a.llm_turns - b.llm_turns,
  lookups: (a, b) => a.flow_lookups + a.shadow_lookups - (b.flow_lookups + b.shadow_lookups),
  errors: (a, b) => a.errors - b.errors,
  duration: (a, b) => a.duration_ms - b.duration_ms,
};

/** The list's order: the column in the order asked, ties newest first (the default is exactly newestFirst). */
export function sessionComparator(sort: SessionSort = 'started', order: SortOrder = 'desc'): (a: SessionSummary, b: SessionSummary) => number {
  if (sort === 'started' && order === 'desc') return newestFirst;
  const key = KEYS[sort];
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => sign * key(a, b) || newestFirst(a, b);
}

/** The chart's days: the range's (at most RANGE_DAYS_MAX, ending at `to`), else the spec's last 14 up to today. */
export function chartDays(range: RangeQuery, nowMs: number): { first: number; last: number } {
  const today = Math.floor(nowMs / DAY_MS);
  if (!range.from && !range.to) return { first: Math.max(0, today + 1 - OVERVIEW_DAYS), last: today };
  const last = range.to ? dayNumber(range.to) : Math.max(today, dayNumber(range.from!));
  const from = range.from ? dayNumber(range.from) : last + 1 - OVERVIEW_DAYS;
  return { first: Math.max(from, last + 1 - RANGE_DAYS_MAX, 0), last };
}

/** Sessions, calls and lookups per UTC day from `first` to `last`, oldest first. */
export function activityBetween(sessions: Tallies | readonly Tallied[], days: { first: number; last: number }): DayActivity[] {
  const out: DayActivity[] = [];
  for (let d = days.first; d <= days.last; d++) out.push({ day: dayName(d), sessions: 0, tool_calls: 0, flow_lookups: 0 });
  for (const c of tallied(sessions).cells()) {
    const slot = out[c.day - days.first];
    if (!slot) continue;
    slot.sessions += c.sessions;
    slot.tool_calls += c.tool_calls;
    slot.flow_lookups += c.flow_lookups;
  }
  return out;
}
