// The overview's arithmetic (console-api.md §4.3), pure so it is tested without a server: the last 14 UTC
// days (a session counts on the UTC day it started), the totals, the domains (the union of the sessions',
// the loadable flows' and the registry's), and the order of the health list.
import type { DayActivity, DomainSummary, HealthItem, Totals } from '../../shared/overview.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { DAY_MS, OVERVIEW_DAYS, SESSIONS_7D_MS } from '../../shared/limits.ts';
import { compareText } from './format.ts';
import { type Tallied, Tallies, tallied } from './tallies.ts';

/** `YYYY-MM-DD` of a UTC day number (days since the epoch). */
export function dayName(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The last 14 UTC days up to today, oldest first, always 14 entries (fewer only right after the epoch). */
export function activity(sessions: Tallies | readonly Tallied[], nowMs: number): DayActivity[] {
  const today = Math.floor(nowMs / DAY_MS);
  const first = today + 1 - Math.min(OVERVIEW_DAYS, today + 1);
  const days: DayActivity[] = [];
  for (let d = first; d <= today; d++) days.push({ day: dayName(d), sessions: 0, tool_calls: 0, flow_lookups: 0 });
  for (const c of tallied(sessions).cells()) {
    const slot = c.day >= first && c.day <= today ? days[c.day - first] : undefined;
    if (!slot) continue;
    slot.sessions += c.sessions;
    slot.tool_calls += c.tool_calls;
    slot.flow_lookups += c.flow_lookups;
  }
  return days;
}

/** Sessions counted by their tally, and how many started at or after a moment (not a day's edge). */
export interface SessionCounts {
  tallies: Tallies;
  startedSince(ms: number): number;
}

export const countsOf = (sessions: readonly Tallied[]): SessionCounts => ({
  tallies: Tallies.of(sessions),
  startedSince: (ms) => sessions.reduce((n, s) => n + (s.started_unix_ms >= ms ? 1 : 0), 0),
});

export interface OverviewInputs {
  /** Readable sessions, or their counts (the index keeps them). */
  sessions: readonly Tallied[] | SessionCounts;
  /** Decisions with shadow=true over every flow log. */
  shadowDecisions: number;
  /** Every flow file in flow-list order; `domain` is null when the flow does not load. */
  flows: readonly { key: string; domain: string | null }[];
  /** Registry server names (none when the registry does not load). */
  servers: readonly string[];
}

export function totalsAndDomains(input: OverviewInputs, nowMs: number): { totals: Totals; domains: DomainSummary[] } {
  const week = Math.max(0, nowMs - SESSIONS_7D_MS);
  const byName = new Map<string, DomainSummary>();
  const domain = (name: string): DomainSummary => {
    let d = byName.get(name);
    if (!d) {
      d = { name, sessions: 0, last_session_unix_ms: null, modes: { recorded: 0, shadow: 0, served: 0 }, flows: [], servers: [] };
      byName.set(name, d);
    }
    return d;
  };
  const counts = 'tallies' in input.sessions ? input.sessions : countsOf(input.sessions);
  const totals: Totals = {
    sessions: 0,
    sessions_7d: counts.startedSince(week),
    domains: 0,
    flows: input.flows.length,
    servers: input.servers.length,
    tool_calls: 0,
    flow_lookups: 0,
    hand_backs: 0,
    shadow_decisions: input.shadowDecisions,
    errors: 0,
  };
  for (const c of counts.tallies.cells()) {
    totals.sessions += c.sessions;
    totals.tool_calls += c.tool_calls;
    totals.flow_lookups += c.flow_lookups;
    totals.hand_backs += c.hand_backs;
    totals.errors += c.errors;
    if (c.domain === null) continue;
    const d = domain(c.domain);
    d.sessions += c.sessions;
    d.last_session_unix_ms = d.last_session_unix_ms === null ? c.last : Math.max(d.last_session_unix_ms, c.last);
    d.modes[c.mode] += c.sessions;
  }
  for (const f of input.flows) if (f.domain !== null) domain(f.domain).flows.push(f.key);
  for (const name of input.servers) domain(name).servers.push(name);
  const domains = [...byName.values()].sort((a, b) => compareText(a.name, b.name));
  totals.domains = domains.length;
  return { totals, domains };
}

export interface HealthInputs {
  /** The doctor's setup checks (engine/doctor.ts setupHealth). */
  setup: readonly HealthItem[];
  /** Why servers.json does not load, if it does not. */
  registryError: string | null;
  /** Flows in flow-list order: why one does not load, or its tool warnings. */
  flows: readonly ({ rel: string; error: string } | { rel: string; warnings: readonly string[] })[];
  /** Unreadable session logs in scan order (only the first 5 are listed). */
  unreadable: readonly { rel: string; error: string }[];
  /** Each registry server's issues. */
  servers: readonly { name: string; issues: readonly string[] }[];
}

const UNREADABLE_LISTED = 5;

/** The health list, in the reference's order. */
export function healthList(input: HealthInputs): HealthItem[] {
  const items: HealthItem[] = [...input.setup];
  if (input.registryError !== null) items.push({ level: 'error', message: input.registryError });
  for (const f of input.flows) {
    if ('error' in f) items.push({ level: 'error', message: `${f.rel}: this engine cannot read it (${f.error})` });
    else for (const w of f.warnings) items.push({ level: 'warn', message: `${f.rel}: ${w}` });
  }
  for (const u of input.unreadable.slice(0, UNREADABLE_LISTED)) {
    items.push({ level: 'warn', message: `${u.rel} is not a session log this engine can read: ${u.error}` });
  }
  for (const s of input.servers) for (const issue of s.issues) items.push({ level: 'warn', message: `server ${s.name}: ${issue}` });
  return items;
}
