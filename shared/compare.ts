// Two sessions side by side (GET /api/sessions/compare?a=KEY&b=KEY): both summaries, their calls and the
// flow's decisions lined up by tool and order, and how b differs from a. Also the answer of
// GET /api/sessions/:key/closest, which picks the session to compare a served one with.
import * as v from 'valibot';
import { JsonValueSchema, KeySchema } from './common.ts';
import { SessionSummarySchema } from './sessions.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const int = v.pipe(v.number(), v.integer());

/**
 * What a side's row is: `agent` the agent's own call (or one made for its commit), `lookup` a call the flow
 * made for the agent, `hand_back` the flow handing back (not in shadow), `shadow` a decision only logged.
 */
export const CompareKindSchema = v.picklist(['agent', 'lookup', 'hand_back', 'shadow']);
export type CompareKind = v.InferOutput<typeof CompareKindSchema>;

/** One side of a row: a call (agent or lookup) or a decision (hand-back or shadow). */
export const CompareItemSchema = v.object({
  kind: CompareKindSchema,
  /** The call's tool; a shadow decision's lookup tool; null for a hand-back. */
  tool: v.nullable(v.string()),
  /** The call's arguments, or the shadow lookup's; null for a hand-back. */
  arguments: JsonValueSchema,
  /** The call's id (calls only). */
  call: v.nullable(v.string()),
  /** Index into the session's decisions: the decision behind a lookup, hand-back or shadow row. */
  decision: v.nullable(count),
  /** The decision's site (the call it followed), e.g. `get_order_details` or `x (error)`; null for agent calls. */
  site: v.nullable(v.string()),
  /** A hand-back's reason. */
  reason: v.nullable(v.string()),
  /** When it happened, in ms from the session's start (a decision: the time of the call it followed). */
  t_ms: count,
  /** Whether the call's first answer was not an error; null for decisions or when no answer came. */
  ok: v.nullable(v.boolean()),
  latency_ms: v.nullable(count),
});
export type CompareItem = v.InferOutput<typeof CompareItemSchema>;

/** A row: a pair (two calls of the same tool), or an item alone on its side (the other side null). */
export const CompareRowSchema = v.object({
  a: v.nullable(CompareItemSchema),
  b: v.nullable(CompareItemSchema),
  /** A pair: whether the arguments are the same too. Null for an item alone. */
  same_arguments: v.nullable(v.boolean()),
});
export type CompareRow = v.InferOutput<typeof CompareRowSchema>;

/** b minus a, so a negative number means b needed fewer. */
export const CompareDifferenceSchema = v.object({
  llm_turns: int,
  /** The agent's own calls. */
  tool_calls: int,
  errors: int,
  duration_ms: int,
  /** Calls the flow made for the agent. */
  flow_lookups: int,
});
export type CompareDifference = v.InferOutput<typeof CompareDifferenceSchema>;

export const SessionComparisonSchema = v.object({
  a: SessionSummarySchema,
  b: SessionSummarySchema,
  /**
   * Both sessions' calls and decisions in order. A pair is two calls of the same tool (an agent's call may
   * pair with a flow's lookup); identical calls are paired first; hand-backs and shadow decisions stand alone.
   */
  rows: v.array(CompareRowSchema),
  /** How many rows pair a call of a with a call of b. */
  paired: count,
  difference: CompareDifferenceSchema,
});
export type SessionComparison = v.InferOutput<typeof SessionComparisonSchema>;

const keyParam = (name: 'a' | 'b') =>
  v.pipe(
    v.optional(v.string(`${name}: give one session key`), ''),
    v.check((s) => s !== '', `${name}: the key of a session to compare is missing (compare?a=KEY&b=KEY)`),
  );

/** GET /api/sessions/compare?a=KEY&b=KEY: both keys are required. */
export const CompareQuerySchema = v.object({ a: keyParam('a'), b: keyParam('b') });
export type CompareQuery = v.InferOutput<typeof CompareQuerySchema>;

/** GET /api/sessions/:key/closest: the recorded session of the same domain whose tools called are nearest. */
export const ClosestSessionSchema = v.object({
  /** The session asked about. */
  key: KeySchema,
  /** The closest recorded session, or null when the domain has none. */
  closest: v.nullable(KeySchema),
  /** Tools called in both over tools called in either (Jaccard), 0 to 1; null with no closest. */
  similarity: v.nullable(v.number()),
});
export type ClosestSession = v.InferOutput<typeof ClosestSessionSchema>;
