// Replays: recorded `tools/call`s sent again to the live server (read-only tools only) and their answers
// compared with the recorded ones as JSON. The request, the run and its calls, and the replay's limits.
import * as v from 'valibot';
import { bodyObject, UnixMsSchema } from './common.ts';

export const REPLAY_NEWEST_DEFAULT = 20;
export const REPLAY_NEWEST_MAX = 500;
export const REPLAY_CALLS_DEFAULT = 200;
export const REPLAY_CALLS_MAX = 2_000;
/** Each call's cap, and the whole run's. */
export const REPLAY_CALL_TIMEOUT_MS = 15_000;
export const REPLAY_RUN_TIMEOUT_MS = 10 * 60_000;
/** Runs the console keeps (for its life), newest first. */
export const REPLAY_RUNS_KEPT = 50;
/** The most a run reads from its server, all together (the connection test's budget, scaled to many calls). */
export const REPLAY_READ_MAX_BYTES = 32 * 1024 * 1024;
export const REPLAY_IGNORE_MAX = 200;
/**
 * The most the console keeps of answers (recorded and live) over all its runs: past it, the oldest runs'
 * answers are let go (their verdicts and differences stay), so comparing one of those again needs a new run.
 */
export const REPLAY_ANSWERS_KEPT_MAX_BYTES = 64 * 1024 * 1024;

/** RFC 6901, optionally followed by `#` and a pointer into a text that parses as JSON. */
const POINTER = /^(?:\/[^#]*)?(?:#(?:\/.*)?)?$/;
export const PointerSchema = v.pipe(
  v.string('a JSON Pointer'),
  v.maxLength(4096, 'a pointer of at most 4096 characters'),
  v.regex(POINTER, 'a JSON Pointer: empty or starting with "/", optionally "#/..." into a JSON text'),
);

const IgnorePathsSchema = v.pipe(
  v.array(PointerSchema, 'a list of JSON Pointers'),
  v.maxLength(REPLAY_IGNORE_MAX, `at most ${REPLAY_IGNORE_MAX} pointers`),
);

const count = (max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.number('a whole number'),
      v.integer('a whole number'),
      v.minValue(1, 'at least 1'),
      v.maxValue(max, `at most ${max}`),
    ),
    fallback,
  );

export const ReplayInputSchema = bodyObject(v.strictObject(
  {
    sessions: v.optional(v.pipe(v.array(v.string('a session key'), 'a list of session keys'), v.minLength(1, 'at least one session'), v.maxLength(REPLAY_NEWEST_MAX, `at most ${REPLAY_NEWEST_MAX} sessions`))),
    newest: count(REPLAY_NEWEST_MAX, REPLAY_NEWEST_DEFAULT),
    max_calls: count(REPLAY_CALLS_MAX, REPLAY_CALLS_DEFAULT),
    ignore_paths: v.optional(IgnorePathsSchema, []),
  },
  'the body: a JSON object with sessions, newest, max_calls and ignore_paths, all optional',
));
export type ReplayInput = v.InferOutput<typeof ReplayInputSchema>;

/** Comparing again with other ignored paths, without calling the server. */
export const RecompareInputSchema = bodyObject(v.strictObject({ ignore_paths: IgnorePathsSchema }, 'the body: {ignore_paths: [pointer, ...]}'));
export type RecompareInput = v.InferOutput<typeof RecompareInputSchema>;

export const ReplayParamsSchema = v.object({ id: v.string() });

export const REPLAY_FORMATS = ['json', 'md'] as const;
export const ReplayDownloadQuerySchema = v.object({
  format: v.optional(v.picklist(REPLAY_FORMATS, 'format: json or md'), 'json'),
});

export const REPLAY_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const ReplayStatusSchema = v.picklist(REPLAY_STATUSES);
export type ReplayStatus = v.InferOutput<typeof ReplayStatusSchema>;

export const VERDICTS = ['same', 'differs', 'error', 'skipped_write', 'gone'] as const;
export const VerdictSchema = v.picklist(VERDICTS);
export type Verdict = v.InferOutput<typeof VerdictSchema>;

/** One difference; a side that has no value at the path has no field. */
export const ReplayDiffSchema = v.object({
  path: v.string(),
  recorded: v.optional(v.unknown()),
  live: v.optional(v.unknown()),
});
export type ReplayDiff = v.InferOutput<typeof ReplayDiffSchema>;

export const ReplayCallSchema = v.object({
  session: v.string(),
  /** The request's line in the session log, from 1. */
  line: v.number(),
  tool: v.string(),
  arguments: v.unknown(),
  verdict: VerdictSchema,
  diffs: v.array(ReplayDiffSchema),
  error: v.nullable(v.string()),
  /**
   * The flow site the call feeds (session-format's `site`: the tool, with ` (error)` when its answer failed), by
   * its recorded answer and by its live one; null without that answer.
   */
  site: v.nullable(v.string()),
  live_site: v.nullable(v.string()),
  /** The recorded answer (its `result` or `error` object), and the live one once sent. */
  recorded: v.unknown(),
  live: v.unknown(),
});
export type ReplayCall = v.InferOutput<typeof ReplayCallSchema>;

export const ReplayCountsSchema = v.object({
  same: v.number(),
  differs: v.number(),
  error: v.number(),
  skipped_write: v.number(),
  gone: v.number(),
});
export type ReplayCounts = v.InferOutput<typeof ReplayCountsSchema>;

/** A path that differed in every compared call of a tool: likely a timestamp or a request id. */
export const VolatilePathSchema = v.object({ tool: v.string(), path: v.string(), calls: v.number() });
export type VolatilePath = v.InferOutput<typeof VolatilePathSchema>;

export const ReplaySummarySchema = v.object({
  id: v.string(),
  server: v.string(),
  status: ReplayStatusSchema,
  created_unix_ms: UnixMsSchema,
  started_unix_ms: v.nullable(UnixMsSchema),
  ended_unix_ms: v.nullable(UnixMsSchema),
  error: v.nullable(v.string()),
  progress: v.object({ done: v.number(), total: v.number() }),
  counts: ReplayCountsSchema,
  sessions: v.array(v.string()),
  ignore_paths: v.array(v.string()),
  volatile: v.array(VolatilePathSchema),
  /** The sites of the server's flow when it has one that loads (at the run's start), in the flow's order. */
  flow_sites: v.nullable(v.array(v.string())),
  /** When the run's answers were let go to bound the console's memory; null while it keeps them. */
  answers_dropped_unix_ms: v.nullable(UnixMsSchema),
});
export type ReplaySummary = v.InferOutput<typeof ReplaySummarySchema>;

export const ReplayRunSchema = v.object({ ...ReplaySummarySchema.entries, calls: v.array(ReplayCallSchema) });
export type ReplayRun = v.InferOutput<typeof ReplayRunSchema>;

export const ReplayListSchema = v.object({ items: v.array(ReplaySummarySchema) });
export type ReplayList = v.InferOutput<typeof ReplayListSchema>;

/** What a replay with the default choice would read, before it runs: the sessions and their tools. */
export const ReplayPlanQuerySchema = v.object({
  newest: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('newest: a whole number'), v.minValue(1, 'newest: at least 1'), v.maxValue(REPLAY_NEWEST_MAX, `newest: at most ${REPLAY_NEWEST_MAX}`)), String(REPLAY_NEWEST_DEFAULT)),
});
export const ReplayPlanSchema = v.object({
  sessions: v.array(v.string()),
  /** Each recorded tool, by name, with its calls and whether a recording's tools/list marked it as writing. */
  tools: v.array(v.object({ name: v.string(), calls: v.number(), recorded_write: v.boolean() })),
});
export type ReplayPlan = v.InferOutput<typeof ReplayPlanSchema>;
