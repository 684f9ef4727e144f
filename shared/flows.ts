// The flows resource on the wire: the list (FlowList of FlowSummary), the reviewer's view at a threshold
// (FlowDetail, the CLI's flow-show view field for field) and the diff (FlowDiffView), plus the query schemas
// of the flow endpoints. Field names and order follow the original console's generated types
// (reference/flow-review.md §3.1, §5.1, §7).
import * as v from 'valibot';
import { DriftCheckSchema } from './drift.ts';
import { DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT } from './limits.ts';
import { ToolKindSchema } from './sessions.ts';

const num = v.number();
const pair = v.tuple([num, num]);

/** How a flow decides when it is served; the one list every other decider schema takes its options from. */
export const DeciderNameSchema = v.picklist(['arbiter', 'habit', 'reach']);
export type DeciderName = v.InferOutput<typeof DeciderNameSchema>;

export const WeighedBySchema = v.picklist(['reach', 'habit']);
export type WeighedBy = v.InferOutput<typeof WeighedBySchema>;

export const ToolCountsSchema = v.object({ read: num, write: num, generic: num });
export type ToolCounts = v.InferOutput<typeof ToolCountsSchema>;

export const PromotedCountsSchema = v.object({ sites_promoted: num, sites_scored: num });
export type PromotedCounts = v.InferOutput<typeof PromotedCountsSchema>;

/** The staged-learning link: whether this is the staged flow, its counterpart's key, and whether they differ. */
export const StageLinkSchema = v.object({ staged: v.boolean(), other: v.nullable(v.string()), pending: v.boolean() });
export type StageLink = v.InferOutput<typeof StageLinkSchema>;

export const VersionOfSchema = v.object({ flow: v.nullable(v.string()), name: v.string(), version: num });
export type VersionOf = v.InferOutput<typeof VersionOfSchema>;

/**
 * A later engine's surprise gate (`learn --surprise`, the flow's `surprise`): the flow hands back for the rest
 * of a session once `window` of the agent's steps in a row average more than `threshold` nats of surprise;
 * `quantile` is the one of held-out training sessions it was learned at, absent when set by hand.
 */
export const SurpriseGateSchema = v.object({
  window: num,
  threshold: num,
  quantile: v.optional(num),
});
export type SurpriseGate = v.InferOutput<typeof SurpriseGateSchema>;

export const FlowSummarySchema = v.object({
  key: v.string(),
  /** Relative to the data directory. */
  path: v.string(),
  /** The file name without ".flow.json". */
  name: v.string(),
  /** manifest.domain; "" when the flow does not load. */
  domain: v.string(),
  /** The file's engine_flow when it reads as a u32, even when the flow does not load; else 0. */
  format_version: num,
  engine_version: v.string(),
  sources: v.array(v.string()),
  habit_episodes: num,
  arbiter_cases: num,
  compiled_unix_ms: num,
  modified_unix_ms: num,
  size_bytes: num,
  decider: DeciderNameSchema,
  has_arbiter: v.boolean(),
  has_reach: v.boolean(),
  tools: ToolCountsSchema,
  sites: num,
  lookups: num,
  /** Beyond the spec (a later engine's): the tools of the lookups, by name. */
  lookup_tools: v.array(v.string()),
  promoted: v.nullable(PromotedCountsSchema),
  /** Registry servers whose `flow` is this file. */
  served_by: v.array(v.string()),
  stage: v.nullable(StageLinkSchema),
  /** Why the flow does not load, else null. */
  error: v.nullable(v.string()),
  /** Beyond the spec (a later engine's): the flow's surprise gate; null without one. */
  surprise: v.nullable(SurpriseGateSchema),
  /**
   * Beyond the spec: present on a committed version, `<name>.history/<N>.flow.json`: the flow it is a version
   * of (its key, null when that file is gone), the flow's name, and N.
   */
  version_of: v.optional(VersionOfSchema),
  /** Beyond the spec (a later engine's): the flow's last finished drift check; absent when none ran. */
  drift: v.optional(DriftCheckSchema),
});
export type FlowSummary = v.InferOutput<typeof FlowSummarySchema>;

export const FlowListSchema = v.object({ items: v.array(FlowSummarySchema) });
export type FlowList = v.InferOutput<typeof FlowListSchema>;

export const FlowToolSchema = v.object({
  name: v.string(),
  kind: ToolKindSchema,
  summary: v.nullable(v.string()),
  args: v.record(v.string(), v.string()),
  contract: v.nullable(v.string()),
});
export type FlowTool = v.InferOutput<typeof FlowToolSchema>;

export const NextShareSchema = v.object({ action: v.string(), share: num });
export type NextShare = v.InferOutput<typeof NextShareSchema>;

export const LookupViewSchema = v.object({
  tool: v.string(),
  count: num,
  share: num,
  weighed_share: num,
  binding_chance: v.nullable(num),
  bindable: v.boolean(),
  prob: num,
  acts: v.boolean(),
});
export type LookupView = v.InferOutput<typeof LookupViewSchema>;

export const ChoiceSchema = v.object({ tool: v.nullable(v.string()), prob: num, acts: v.boolean() });
export type Choice = v.InferOutput<typeof ChoiceSchema>;

export const SiteRecordSchema = v.object({
  decisions: num,
  lookups: num,
  used: num,
  served: num,
  tasks: num,
  lower: num,
  promoted: v.boolean(),
});
export type SiteRecord = v.InferOutput<typeof SiteRecordSchema>;

export const SiteViewSchema = v.object({
  name: v.string(),
  tool: v.string(),
  failed: v.boolean(),
  steps: num,
  weighed_by: WeighedBySchema,
  next: v.array(NextShareSchema),
  lookups: v.array(LookupViewSchema),
  hand_back_share: num,
  choice: v.nullable(ChoiceSchema),
  promoted: v.nullable(SiteRecordSchema),
  threshold: v.nullable(num),
  active: v.boolean(),
  verdict: v.string(),
});
export type SiteView = v.InferOutput<typeof SiteViewSchema>;

export const SourceViewSchema = v.object({ tool: v.string(), path: v.string(), count: num, share: num });
export type SourceView = v.InferOutput<typeof SourceViewSchema>;

export const ArgViewSchema = v.object({
  name: v.string(),
  required: v.boolean(),
  calls: num,
  constant: v.unknown(),
  sources: v.array(SourceViewSchema),
});
export type ArgView = v.InferOutput<typeof ArgViewSchema>;

export const BindingViewSchema = v.object({
  tool: v.string(),
  calls: num,
  chance: v.nullable(v.tuple([num, num, num])),
  agreed: v.tuple([pair, pair]),
  args: v.array(ArgViewSchema),
});
export type BindingView = v.InferOutput<typeof BindingViewSchema>;

export const ProvenanceSchema = v.object({
  engine: v.string(),
  sources: v.array(v.string()),
  habit_episodes: num,
  arbiter_cases: num,
  compiled_unix_ms: num,
  conventions: v.optional(v.nullable(v.string())),
});
export type Provenance = v.InferOutput<typeof ProvenanceSchema>;

export const BarSchema = v.object({ threshold: num, min_used: num, min_lower: num, min_tasks: num });
export type Bar = v.InferOutput<typeof BarSchema>;

export const PromotionViewSchema = v.object({ bar: BarSchema, sites_promoted: num, sites_scored: num });
export type PromotionView = v.InferOutput<typeof PromotionViewSchema>;

/** The review part of FlowDetail: the CLI's flow-show view at a threshold. */
export const ReviewViewSchema = v.object({
  threshold: num,
  tools: v.array(FlowToolSchema),
  sites: v.array(SiteViewSchema),
  bindings: v.array(BindingViewSchema),
  provenance: ProvenanceSchema,
  promotion: v.nullable(PromotionViewSchema),
});
export type ReviewView = v.InferOutput<typeof ReviewViewSchema>;

export const FlowDetailSchema = v.object({
  summary: FlowSummarySchema,
  ...ReviewViewSchema.entries,
  /** `engine flow-show` at the threshold, byte for byte. */
  review_markdown: v.string(),
  /** Against the latest recorded tools/list of the flow's domain. */
  warnings: v.array(v.string()),
});
export type FlowDetail = v.InferOutput<typeof FlowDetailSchema>;

export const DiffSectionSchema = v.object({ title: v.string(), changes: v.array(v.string()) });
export type DiffSection = v.InferOutput<typeof DiffSectionSchema>;

export const FlowDiffViewSchema = v.object({
  /** The keys as given. */
  from: v.string(),
  to: v.string(),
  /** The changes a reviewer must look at. */
  review: v.array(v.string()),
  /** Every change, heading by heading. */
  changes: v.array(v.string()),
  sections: v.array(DiffSectionSchema),
  /** `engine flow-diff`'s text. */
  markdown: v.string(),
});
export type FlowDiffView = v.InferOutput<typeof FlowDiffViewSchema>;

// Queries. Only well-formed numbers pass here; the range checks, with their exact messages, sit in the route
// because the threshold is checked before the key and the diff's checks have a fixed order.

/** A query number: "" or text that is not a number is the generic 400. */
export const queryFloat = (name: string, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check((s) => /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i.test(s), `${name}: a number`),
      v.transform(parseQueryFloat),
    ),
    String(fallback),
  );

/** Reads a query float the way Rust's f64 parser does, including inf and NaN. */
export function parseQueryFloat(s: string): number {
  const t = s.toLowerCase();
  const sign = t.startsWith('-') ? -1 : 1;
  const bare = t.replace(/^[+-]/, '');
  if (bare === 'inf' || bare === 'infinity') return sign * Number.POSITIVE_INFINITY;
  if (bare === 'nan') return Number.NaN;
  return Number(t);
}

export const FlowDetailQuerySchema = v.object({ threshold: queryFloat('threshold', FLOW_THRESHOLD_DEFAULT) });
export type FlowDetailQuery = v.InferOutput<typeof FlowDetailQuerySchema>;

export const FlowDiffQuerySchema = v.object({
  threshold: queryFloat('threshold', FLOW_THRESHOLD_DEFAULT),
  tolerance: queryFloat('tolerance', DIFF_TOLERANCE_DEFAULT),
  from: v.optional(v.string()),
  to: v.optional(v.string()),
});
export type FlowDiffQuery = v.InferOutput<typeof FlowDiffQuerySchema>;

export const FlowKeyParamsSchema = v.object({ key: v.string() });
export type FlowKeyParams = v.InferOutput<typeof FlowKeyParamsSchema>;
