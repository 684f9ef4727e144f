// Overview and settings shapes written from console-api.md §4.3–4.4 while shared/overview.ts and
// shared/settings.ts are being written; endpoints.ts switches to the shared schemas once they land.
import * as v from 'valibot';
import { JobSchema } from '../../../shared/jobs.ts';
import { SessionSummarySchema } from '../../../shared/sessions.ts';

export const TotalsSchema = v.object({
  sessions: v.number(),
  sessions_7d: v.number(),
  domains: v.number(),
  flows: v.number(),
  servers: v.number(),
  tool_calls: v.number(),
  flow_lookups: v.number(),
  hand_backs: v.number(),
  shadow_decisions: v.number(),
  errors: v.number(),
});
export const DomainSummarySchema = v.object({
  name: v.string(),
  sessions: v.number(),
  last_session_unix_ms: v.nullable(v.number()),
  modes: v.object({ recorded: v.number(), shadow: v.number(), served: v.number() }),
  flows: v.array(v.string()),
  servers: v.array(v.string()),
});
export type DomainSummary = v.InferOutput<typeof DomainSummarySchema>;
export const DayActivitySchema = v.object({ day: v.string(), sessions: v.number(), tool_calls: v.number(), flow_lookups: v.number() });
export type DayActivity = v.InferOutput<typeof DayActivitySchema>;
export const HealthItemSchema = v.object({ level: v.picklist(['ok', 'note', 'warn', 'error']), message: v.string() });
export type HealthItem = v.InferOutput<typeof HealthItemSchema>;
export const OverviewSchema = v.object({
  totals: TotalsSchema,
  domains: v.array(DomainSummarySchema),
  activity: v.array(DayActivitySchema),
  recent_sessions: v.array(SessionSummarySchema),
  health: v.array(HealthItemSchema),
  jobs: v.array(JobSchema),
});
export type Overview = v.InferOutput<typeof OverviewSchema>;

export const SettingsSchema = v.object({
  data_dir: v.string(),
  disk: v.object({ logs_bytes: v.number(), flows_bytes: v.number(), cache_bytes: v.number(), other_bytes: v.number(), total_bytes: v.number() }),
  sessions: v.number(),
  flows: v.number(),
  key_set: v.boolean(),
  retention_note: v.string(),
  binaries: v.array(v.object({ name: v.string(), path: v.nullable(v.string()), version: v.nullable(v.string()) })),
  version: v.string(),
  read_only: v.boolean(),
  auth: v.boolean(),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;
