// Drift checks (console-api.md §8, the original console's `DriftCheck`): the last finished `engine drift` job
// on a flow, as its JSON report says it went, and the report's shape as the engine's drift.rs writes it.
import * as v from 'valibot';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The last drift job on a flow that ran to its end. */
export const DriftCheckSchema = v.object({
  /** The job's id. */
  job: v.string(),
  finished_unix_ms: v.number(),
  /** The alarm sounded after the last session: the agent may have changed under the flow. */
  alarm: v.boolean(),
  /** The sessions it scored. */
  sessions: count,
  /** With the alarm: the sessions since the likeliest change. */
  since: v.nullable(count),
  /** With the alarm: the probability of a change within the window. */
  probability: v.nullable(v.number()),
  /** With the alarm: the sites where the flow's surprise rose most, at most three. */
  sites: v.array(v.string()),
  /** The tools the agent called that training never saw. */
  unknown_tools: v.array(v.string()),
  /** Beyond the original: the index of the job's Markdown report among its artifacts, for a link. */
  report: v.nullable(count),
});
export type DriftCheck = v.InferOutput<typeof DriftCheckSchema>;

/** The parts of drift.rs's `Drift` report a check reads; everything else in it is left alone. */
export const DriftReportSchema = v.looseObject({
  sessions: v.array(v.unknown()),
  alarms: v.array(v.looseObject({ change: count, probability: v.number(), moved: v.array(v.looseObject({ site: v.string() })) })),
  sounding: v.optional(v.boolean()),
  unknown_tools: v.record(v.string(), v.unknown()),
});
export type DriftReport = v.InferOutput<typeof DriftReportSchema>;

/** The overview's drift check of one flow: never run, quiet, or sounding, and when. */
export const DriftHealthSchema = v.object({
  flow: v.string(),
  /** The flow's path, relative to the data directory. */
  path: v.string(),
  state: v.picklist(['never', 'quiet', 'alarm']),
  checked_unix_ms: v.nullable(v.number()),
  job: v.nullable(v.string()),
});
export type DriftHealth = v.InferOutput<typeof DriftHealthSchema>;
