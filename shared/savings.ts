// Savings (GET /api/savings?days=N&domain=D): what serving a flow changed, from the session index. The period
// is the last N UTC days, today included (N default 14, from 1 to 365); a session belongs to the UTC day it
// started on. Sessions without a domain are left out, and so are shadow sessions (their flow only logged).
//
// The figures, per UTC day and domain and over the period:
// - served_sessions: sessions whose mode is `served` (a flow, or the proxy, acted in them);
// - lookups: calls the flow made for the agent in those sessions (the summaries' flow_lookups);
// - calls: the agent's own tool calls in those sessions (tool_calls);
// - llm_turns: the agent's LLM turns in those sessions (llm_turns, inferred from timing);
// - hand_backs: the flow's hand-backs, not in shadow, in those sessions.
// And per domain over the period, against the `recorded` sessions of that domain in the same period:
// - with_flow: calls and LLM turns per served session (the totals above over served_sessions);
// - without_flow: calls and LLM turns per recorded session;
// - saved: without minus with, per session (positive: the flow saved that many); null when a side has no
//   session.
import * as v from 'valibot';
import { UnixMsSchema } from './common.ts';
import { SAVINGS_DAYS_DEFAULT, SAVINGS_DAYS_MAX } from './limits.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const average = v.nullable(v.number());

/** The served sessions' figures (see the file's comment for each). */
export const ServedFiguresSchema = v.object({
  served_sessions: count,
  lookups: count,
  calls: count,
  llm_turns: count,
  hand_backs: count,
});
export type ServedFigures = v.InferOutput<typeof ServedFiguresSchema>;

/** One UTC day of one domain. */
export const SavingsDaySchema = v.object({
  /** `YYYY-MM-DD`, UTC. */
  date: v.string(),
  /** The day's first millisecond. */
  start_unix_ms: UnixMsSchema,
  domain: v.string(),
  ...ServedFiguresSchema.entries,
});
export type SavingsDay = v.InferOutput<typeof SavingsDaySchema>;

/** Calls and LLM turns per session; null with no session to average over. */
export const PerSessionSchema = v.object({
  calls: average,
  llm_turns: average,
});
export type PerSession = v.InferOutput<typeof PerSessionSchema>;

/** One domain over the period. */
export const SavingsDomainSchema = v.object({
  domain: v.string(),
  ...ServedFiguresSchema.entries,
  /** Recorded sessions of the domain in the period (no flow took part). */
  recorded_sessions: count,
  /** Per served session. */
  with_flow: PerSessionSchema,
  /** Per recorded session. */
  without_flow: PerSessionSchema,
  /** without_flow minus with_flow: what the flow saved per session. */
  saved: PerSessionSchema,
});
export type SavingsDomain = v.InferOutput<typeof SavingsDomainSchema>;

export const SavingsSchema = v.object({
  days: count,
  /** The domain asked for, or null for every domain. */
  domain: v.nullable(v.string()),
  /** The period: from the first day's first millisecond to the last day's end (exclusive). */
  start_unix_ms: UnixMsSchema,
  end_unix_ms: UnixMsSchema,
  /** Every day of the period for every listed domain, oldest day first, domains in `domains` order. */
  daily: v.array(SavingsDaySchema),
  /** Domains with a served or recorded session in the period (the one asked for, always), by name. */
  domains: v.array(SavingsDomainSchema),
  /**
   * Every listed domain together (`domain` is the one asked for, or ""). Its recorded sessions are those of
   * the domains with a served session, so a domain never served does not weigh on "without the flow".
   */
  totals: SavingsDomainSchema,
});
export type Savings = v.InferOutput<typeof SavingsSchema>;

/** GET /api/savings?days=&domain= */
export const SavingsQuerySchema = v.object({
  days: v.pipe(
    v.optional(v.string(), String(SAVINGS_DAYS_DEFAULT)),
    v.regex(/^\d{1,4}$/, `days: a whole number of days, from 1 to ${SAVINGS_DAYS_MAX}`),
    v.transform(Number),
    v.minValue(1, `days: a whole number of days, from 1 to ${SAVINGS_DAYS_MAX}`),
    v.maxValue(SAVINGS_DAYS_MAX, `days: a whole number of days, from 1 to ${SAVINGS_DAYS_MAX}`),
  ),
  domain: v.pipe(
    v.optional(v.string('domain: give it once, as text'), ''),
    v.transform((s) => (s === '' ? null : s)),
  ),
});
export type SavingsQuery = v.InferOutput<typeof SavingsQuerySchema>;
