// Jobs: one run of the CLI (spec §2 Job, §3, §4 "Job request"; console-api §4.19, §5.1). A job request is a
// variant tagged by `kind`; every refusal of its shape is a 400 that starts "the job is not as expected: ".
// Value checks that need the files or the config (paths, flow keys, probabilities, the key, the salt) are the
// planner's (server/jobs/plan.ts), so their exact messages live there.
import * as v from 'valibot';
import { bodyObject, UnixMsSchema } from './common.ts';
import { DeciderNameSchema } from './flows.ts';
import { TrashIdSchema } from './trash.ts';

export const JOB_KINDS = ['learn', 'promote', 'audit', 'stage', 'drift', 'redact', 'doctor'] as const;

/** Kinds offered only when the engine CLI found has the command (server/jobs/commands.ts asks it). */
export const OPTIONAL_JOB_KINDS = ['drift'] as const;
export type OptionalJobKind = (typeof OPTIONAL_JOB_KINDS)[number];

/** A job's domain, as the CLI's check_domain takes it: ASCII letters, digits, `-`, `_`, `.`; not first `.` or `-`. */
export const JOB_DOMAIN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
export const JobKindSchema = v.picklist(JOB_KINDS);
export type JobKind = v.InferOutput<typeof JobKindSchema>;

export const JobStatusSchema = v.picklist(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type JobStatus = v.InferOutput<typeof JobStatusSchema>;

export const ArtifactKindSchema = v.picklist(['flow', 'report', 'dir']);
export type ArtifactKind = v.InferOutput<typeof ArtifactKindSchema>;

export const ArtifactSchema = v.object({
  kind: ArtifactKindSchema,
  /** shown(): relative to the data directory, or ~/…, or the full path. */
  path: v.string(),
  /** The flow's catalog key; set only after the job ends, for a flow artifact. */
  key: v.nullable(v.string()),
});
export type Artifact = v.InferOutput<typeof ArtifactSchema>;

/** A file the job wrote over: the old one waits in the trash folder `trash_id`, at the same relative path. */
export const ReplacedSchema = v.object({
  /** Relative to the data directory: where it was, and where a restore puts it back. */
  path: v.string(),
  trash_id: TrashIdSchema,
});
export type Replaced = v.InferOutput<typeof ReplacedSchema>;

/** Field order as the original writes it; `defaults` and `replaced` are ours (absent from older records). */
export const JobSchema = v.object({
  /** `YYYYMMDDTHHMMSS.mmmZ` of its creation, `-`, 4 lowercase hex digits. */
  id: v.string(),
  kind: JobKindSchema,
  title: v.string(),
  /** The request with its defaults filled in, keys sorted, paths shown. */
  params: v.unknown(),
  status: JobStatusSchema,
  created_unix_ms: UnixMsSchema,
  started_unix_ms: v.nullable(UnixMsSchema),
  finished_unix_ms: v.nullable(UnixMsSchema),
  exit_code: v.nullable(v.number()),
  /** The job ended with its command's alarm, which is not a failure: engine drift found the agent changed. */
  alarm: v.optional(v.boolean(), false),
  /** Lists, events and the overview: the last 64 KiB, from a line start. One job: all of it. */
  output: v.string(),
  /** The planned ones until the job ends; afterwards only those it created or changed while it ran. */
  artifacts: v.array(ArtifactSchema),
  /** The keys of `params` the request left unset, so their values are the defaults. */
  defaults: v.optional(v.array(v.string()), []),
  /** Files the job wrote over, each moved to the trash before it ran. */
  replaced: v.optional(v.array(ReplacedSchema), []),
});
export type Job = v.InferOutput<typeof JobSchema>;

export const JobListSchema = v.object({ items: v.array(JobSchema) });
export type JobList = v.InferOutput<typeof JobListSchema>;

/** The flow's decider list (shared/flows.ts), with the job request's message. */
export const JobDeciderSchema = v.picklist(DeciderNameSchema.options, bad('decider', 'one of arbiter, habit, reach'));

function bad(field: string, expected: string): string {
  return `the job is not as expected: ${field}: ${expected}`;
}
const text = (field: string) => v.string(bad(field, 'a string'));
const optionalText = (field: string) => v.nullish(text(field));
const optionalFlag = (field: string) => v.nullish(v.boolean(bad(field, 'true or false')));
const optionalNumber = (field: string) => v.nullish(v.number(bad(field, 'a number')));
const optionalCount = (field: string) =>
  v.nullish(
    v.pipe(
      v.number(bad(field, 'a whole number, 0 or more')),
      v.integer(bad(field, 'a whole number, 0 or more')),
      v.minValue(0, bad(field, 'a whole number, 0 or more')),
    ),
  );
const needs = (kind: string, fields: string) => `the job is not as expected: a ${kind} job needs ${fields}`;

export const LearnRequestSchema = v.object(
  {
    kind: v.literal('learn'),
    domain: text('domain'),
    sessions: text('sessions'),
    out: optionalText('out'),
    overwrite: optionalFlag('overwrite'),
    habit_only: optionalFlag('habit_only'),
    constants: optionalFlag('constants'),
  },
  needs('learn', 'domain and sessions'),
);

export const PromoteRequestSchema = v.object(
  {
    kind: v.literal('promote'),
    flow: text('flow'),
    sessions: text('sessions'),
    oracle_cache: optionalText('oracle_cache'),
    threshold: optionalNumber('threshold'),
    min_used: optionalNumber('min_used'),
    min_lower: optionalNumber('min_lower'),
    min_tasks: optionalCount('min_tasks'),
    out: optionalText('out'),
    overwrite: optionalFlag('overwrite'),
  },
  needs('promote', 'flow and sessions'),
);

export const AuditRequestSchema = v.object(
  {
    kind: v.literal('audit'),
    flow: text('flow'),
    sessions: text('sessions'),
    decider: v.nullish(JobDeciderSchema),
  },
  needs('audit', 'flow and sessions'),
);

export const StageRequestSchema = v.object(
  {
    kind: v.literal('stage'),
    flow: text('flow'),
    sessions: text('sessions'),
    window: optionalCount('window'),
    decider: v.nullish(JobDeciderSchema),
    half_life: optionalNumber('half_life'),
    constants: optionalFlag('constants'),
  },
  needs('stage', 'flow and sessions'),
);

/** `engine drift` (console-api §8): its defaults are the original console's. */
export const DriftRequestSchema = v.object(
  {
    kind: v.literal('drift'),
    flow: text('flow'),
    sessions: text('sessions'),
    decider: v.nullish(JobDeciderSchema),
    window: optionalCount('window'),
    threshold: optionalNumber('threshold'),
  },
  needs('drift', 'flow and sessions'),
);

export const RedactRequestSchema = v.object(
  {
    kind: v.literal('redact'),
    sessions: text('sessions'),
    out: text('out'),
    keep_shared: optionalCount('keep_shared'),
    hash_fields: v.nullish(v.array(text('hash_fields[]'), bad('hash_fields', 'a list of strings'))),
  },
  needs('redact', 'sessions and out'),
);

export const DoctorRequestSchema = v.object({ kind: v.literal('doctor') });

/** A job id as jobId() makes it: `YYYYMMDDTHHMMSS.mmmZ-xxxx`. */
export const JobIdSchema = v.pipe(
  v.string(bad('id', 'a job id')),
  v.regex(/^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{4}$/, bad('id', 'a job id as the preview gave it')),
);

/** The body of POST /api/jobs and POST /api/jobs/preview. */
export const JobRequestSchema = v.variant(
  'kind',
  [
    LearnRequestSchema,
    PromoteRequestSchema,
    AuditRequestSchema,
    StageRequestSchema,
    DriftRequestSchema,
    RedactRequestSchema,
    DoctorRequestSchema,
  ],
  // The SPEC's kinds: an optional kind the engine lacks is refused by the planner, naming why.
  bad('kind', `one of ${JOB_KINDS.filter((k) => !(OPTIONAL_JOB_KINDS as readonly string[]).includes(k)).join(', ')}`),
);
export type JobRequest = v.InferOutput<typeof JobRequestSchema>;

/** The id a job request may carry: the one its preview answered, so the job runs the very argv shown. */
export const JobRequestIdSchema = bodyObject(v.object({ id: v.nullish(JobIdSchema) }));

/** POST /api/jobs/preview: what a job with this request would run, planned by the code that plans the job. */
export const JobPlanPreviewSchema = v.object({
  ok: v.literal(true),
  /** The id the job gets when the request is sent with it (its reports are named for it). */
  id: v.string(),
  title: v.string(),
  params: v.unknown(),
  defaults: v.array(v.string()),
  /** The CLI's arguments, without the program. */
  argv: v.array(v.string()),
  /** `engine` and the argv, shell-quoted: the `$` line the job's output starts with. */
  command: v.string(),
});
/** The refusal POST /api/jobs would answer for this request: its status and message (the preview itself is 200). */
export const JobRefusalPreviewSchema = v.object({ ok: v.literal(false), status: v.number(), error: v.string() });
export const JobPreviewSchema = v.variant('ok', [JobPlanPreviewSchema, JobRefusalPreviewSchema]);
export type JobPreview = v.InferOutput<typeof JobPreviewSchema>;
export type JobPlanPreview = v.InferOutput<typeof JobPlanPreviewSchema>;
export type LearnRequest = v.InferOutput<typeof LearnRequestSchema>;
export type PromoteRequest = v.InferOutput<typeof PromoteRequestSchema>;
export type AuditRequest = v.InferOutput<typeof AuditRequestSchema>;
export type StageRequest = v.InferOutput<typeof StageRequestSchema>;
export type DriftRequest = v.InferOutput<typeof DriftRequestSchema>;
export type RedactRequest = v.InferOutput<typeof RedactRequestSchema>;

/** `:id` and `:index` of /api/jobs/:id/artifacts/:index. */
export const JobParamsSchema = v.object({ id: v.string() });
export const ArtifactParamsSchema = v.object({
  id: v.string(),
  index: v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, 'the artifact index is a whole number, 0 or more'),
    v.transform(Number),
  ),
});
