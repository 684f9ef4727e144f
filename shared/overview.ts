// GET /api/overview (console-api.md §4.3): totals, domains, the last 14 UTC days, the 8 newest sessions, the
// health list (the CLI doctor's checks, the flows', the registry's) and the 5 newest jobs.
import * as v from 'valibot';
import { DriftHealthSchema } from './drift.ts';
import { dayRangeInOrder, queryDay } from './common.ts';
import { JobSchema } from './jobs.ts';
import { IndexingSchema, SessionSummarySchema } from './sessions.ts';

const count = v.number();

export const TotalsSchema = v.object({
  /** Readable sessions. */
  sessions: count,
  /** Sessions started in the last 7 days. */
  sessions_7d: count,
  domains: count,
  /** Every flow file, loadable or not. */
  flows: count,
  /** Registry entries (0 when the registry does not load). */
  servers: count,
  tool_calls: count,
  flow_lookups: count,
  hand_backs: count,
  /** Decisions logged in shadow: lookups and hand-backs. */
  shadow_decisions: count,
  errors: count,
});
export type Totals = v.InferOutput<typeof TotalsSchema>;

export const ModeCountsSchema = v.object({ recorded: count, shadow: count, served: count });
export type ModeCounts = v.InferOutput<typeof ModeCountsSchema>;

export const DomainSummarySchema = v.object({
  name: v.string(),
  sessions: count,
  last_session_unix_ms: v.nullable(v.number()),
  modes: ModeCountsSchema,
  /** Keys of the loadable flows of this domain, in flow-list order. */
  flows: v.array(v.string()),
  /** Registry servers of this name. */
  servers: v.array(v.string()),
});
export type DomainSummary = v.InferOutput<typeof DomainSummarySchema>;

export const DayActivitySchema = v.object({
  /** `YYYY-MM-DD`, a UTC day. */
  day: v.string(),
  sessions: count,
  tool_calls: count,
  flow_lookups: count,
});
export type DayActivity = v.InferOutput<typeof DayActivitySchema>;

export const HealthLevelSchema = v.picklist(['ok', 'note', 'warn', 'error']);
export type HealthLevel = v.InferOutput<typeof HealthLevelSchema>;

export const HealthItemSchema = v.object({ level: HealthLevelSchema, message: v.string() });
export type HealthItem = v.InferOutput<typeof HealthItemSchema>;

export const OverviewSchema = v.object({
  totals: TotalsSchema,
  /** Sorted by name. */
  domains: v.array(DomainSummarySchema),
  /** The last 14 UTC days, oldest first. */
  activity: v.array(DayActivitySchema),
  /** The 8 newest sessions. */
  recent_sessions: v.array(SessionSummarySchema),
  health: v.array(HealthItemSchema),
  /** The 5 newest jobs, with the tail of their output. */
  jobs: v.array(JobSchema),
  /** While the console is still reading the data directory after start (the session figures are partial). */
  indexing: v.optional(IndexingSchema),
  /** Beyond the spec: each flow's drift check (never run, quiet, alarm), where the engine has drift or one ran. */
  drift: v.optional(v.array(DriftHealthSchema), []),
});
export type Overview = v.InferOutput<typeof OverviewSchema>;

/**
 * GET /api/overview?domain=&from=&to= (beyond the spec, which takes no query): with a domain, the totals, the
 * chart and the newest sessions count only its sessions; with `from`/`to` (UTC days, both included), only
 * the sessions started in those days, and the chart covers them (at most 92 days, ending at `to`).
 */
export const OverviewQuerySchema = v.pipe(
  v.object({
    domain: v.optional(
      v.pipe(
        v.string('domain: give it once, as text'),
        v.transform((s) => (s === '' ? null : s)),
      ),
      '',
    ),
    from: queryDay('from'),
    to: queryDay('to'),
  }),
  v.check(dayRangeInOrder, 'from: the first day must not be after the last (to)'),
);
export type OverviewQuery = v.InferOutput<typeof OverviewQuerySchema>;
