// Staged learning on the wire: the stage view of GET /api/flows/:key/stage, the version a commit or rollback
// answers, and their request bodies (console-api.md §4.13–4.14, init-doctor-stage.md §3.9). Field order is
// the order on the wire. Shares are unrounded numbers from 0 to 1; the report text rounds them.
import * as v from 'valibot';
import { bodyObject, KeySchema, ProbabilitySchema, RelPathSchema, UnixMsSchema } from './common.ts';
import { FlowDiffViewSchema, FlowSummarySchema } from './flows.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A share of lookups the agent made, with its 90% Wilson interval. */
export const ShareSchema = v.object({ share: ProbabilitySchema, lower: ProbabilitySchema, upper: ProbabilitySchema });
export type Share = v.InferOutput<typeof ShareSchema>;

/** One flow's lookups at a site (or at every site) over the sessions compared. */
export const CountsSchema = v.object({
  decisions: count,
  /** The lookups it would have made. */
  lookups: count,
  /** Of those, the ones the agent made in a later LLM turn. */
  used: count,
  /** The ones the proxy had made, serving a flow: neither used nor detours. */
  served: count,
  /** lookups − used − served: the ones the agent never made. */
  detours: count,
  /** used / (lookups − served) with its interval; null when that is 0. */
  used_share: v.nullable(ShareSchema),
});
export type Counts = v.InferOutput<typeof CountsSchema>;

/** Both flows' counts at one site; the total row has site "". */
export const SiteCountsSchema = v.object({ site: v.string(), committed: CountsSchema, staged: CountsSchema });
export type SiteCounts = v.InferOutput<typeof SiteCountsSchema>;

/** The last `engine stage` run's comparison, as data (no domain, changes or needs_review: see `diff`). */
export const ComparisonViewSchema = v.object({
  /** The staged flow's provenance.compiled_unix_ms. */
  learned_unix_ms: UnixMsSchema,
  /** The sessions the staged flow learned from. */
  sessions: count,
  /** Of those, the ones that run took in. */
  new: count,
  /** Whether there was a committed flow to compare with. */
  committed: v.boolean(),
  /** The sessions compared. */
  compared: count,
  /** In site order. */
  sites: v.array(SiteCountsSchema),
  total: SiteCountsSchema,
  /** Decisions left out, [committed, staged]: the System-One model gave no answer. */
  unanswered: v.tuple([count, count]),
  /** What the staged flow took from the committed one rather than learned. */
  carried: v.array(v.string()),
});
export type ComparisonView = v.InferOutput<typeof ComparisonViewSchema>;

export const VersionKindSchema = v.picklist(['found', 'commit', 'rollback']);
export type VersionKind = v.InferOutput<typeof VersionKindSchema>;

/** One version of the committed flow, as `engine flow-log` lists it. */
export const VersionViewSchema = v.object({
  /** From 1. */
  version: count,
  kind: VersionKindSchema,
  /** When it became the committed flow. */
  unix_ms: UnixMsSchema,
  /** For a rollback, the version it restored. */
  restored: v.nullable(count),
  note: v.nullable(v.string()),
  /** What changed from the version before, as flow-diff lists it. */
  changes: v.array(v.string()),
  /** For a commit, the comparison it rested on. */
  evidence: v.nullable(ComparisonViewSchema),
  /** Whether it is the committed flow now. */
  current: v.boolean(),
});
export type VersionView = v.InferOutput<typeof VersionViewSchema>;

/** GET /api/flows/:key/stage. */
export const StageViewSchema = v.object({
  /** The key of NAME.flow.json; null before the first commit. */
  committed: v.nullable(KeySchema),
  /** Where the committed flow is or will be: relative to the data directory, else ~/…, else absolute. */
  committed_path: RelPathSchema,
  /** NAME.staged.flow.json's summary, with its stage link, when it exists. */
  staged: v.nullable(FlowSummarySchema),
  staged_path: RelPathSchema,
  /** NAME.stage.json's last comparison. */
  last: v.nullable(ComparisonViewSchema),
  /** That run's report, as `engine stage` writes it, naming the committed flow by its absolute path. */
  report_markdown: v.nullable(v.string()),
  /** Whether a commit now would record `last` as its evidence. */
  evidence: v.boolean(),
  /** Why a commit would be refused or fail; null when it would be allowed. */
  refused: v.nullable(v.string()),
  /** What committing would change: flow-diff(committed → staged) at tolerance 0.05 and threshold 0.3. */
  diff: v.nullable(FlowDiffViewSchema),
  /** Every committed version, the latest first. */
  versions: v.array(VersionViewSchema),
  /** The committed flow exists and is not the latest version (changed by other means, or never committed). */
  unrecorded: v.boolean(),
});
export type StageView = v.InferOutput<typeof StageViewSchema>;

const NOTE_MESSAGE = 'note: a text, or null';

/** The body of POST /api/flows/:key/commit; an empty body means the defaults. */
export const CommitRequestSchema = bodyObject(
  v.object({
    /** Why, in the committer's words; trimmed, and an empty note counts as none. */
    note: v.optional(v.nullable(v.string(NOTE_MESSAGE)), null),
  }),
);
export type CommitRequest = v.InferOutput<typeof CommitRequestSchema>;

/** The body of POST /api/flows/:key/rollback; an empty body means the defaults. */
const TO_MESSAGE = 'to: a version number (a whole number), or null for the one before the current';

export const RollbackRequestSchema = bodyObject(
  v.object({
    /** The version to restore; by default the one before the committed flow, as flow-rollback chooses it. */
    to: v.optional(
      v.nullable(
        v.pipe(
          v.number(TO_MESSAGE),
          v.integer(TO_MESSAGE),
          v.minValue(0, TO_MESSAGE),
          v.maxValue(0xffff_ffff, TO_MESSAGE),
        ),
      ),
      null,
    ),
    note: v.optional(v.nullable(v.string(NOTE_MESSAGE)), null),
  }),
);
export type RollbackRequest = v.InferOutput<typeof RollbackRequestSchema>;
