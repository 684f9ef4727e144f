// A flow's evidence (GET /api/flows/:key/sites): for each site of the flow, the sessions whose flow log shows
// the flow acting there (a lookup, a hand-back, or a decision only logged in shadow), newest first, with
// counts. A flow log does not name its flow: the sessions are those of the flow's domain, so two flows of
// one domain (a flow and its promoted copy) show the same evidence.
import * as v from 'valibot';
import { KeySchema, UnixMsSchema, queryInt } from './common.ts';
import { SESSIONS_LIMIT_DEFAULT, SESSIONS_LIMIT_MAX } from './limits.ts';
import { SessionModeSchema } from './sessions.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One session at one site: what its flow log shows there. */
export const FlowSiteSessionSchema = v.object({
  key: KeySchema,
  session_id: v.string(),
  mode: SessionModeSchema,
  started_unix_ms: UnixMsSchema,
  /** Lookups decided there, not in shadow. */
  lookups: count,
  /** Hand-backs there, not in shadow. */
  hand_backs: count,
  /** Decisions there only logged, in shadow. */
  shadow: count,
  /**
   * The session log's line (from 1) that shows the first decision there, for `/sessions/<key>?line=<N>`: a
   * lookup's call, else the agent's call it was made after; null when no line does.
   */
  line: v.nullable(count),
});
export type FlowSiteSession = v.InferOutput<typeof FlowSiteSessionSchema>;

export const FlowSiteEvidenceSchema = v.object({
  /** The site's name: `tool`, or `tool (error)` after a failed call (the flow's and the flow log's spelling). */
  site: v.string(),
  /** Whether the flow has this site; a site only the logs show (a write tool, another version) is false. */
  in_flow: v.boolean(),
  /** How many sessions show the flow acting at the site. */
  sessions: count,
  /** Totals over those sessions. */
  lookups: count,
  hand_backs: count,
  shadow: count,
  /** The sessions, newest first, at most `limit` of them. */
  items: v.array(FlowSiteSessionSchema),
});
export type FlowSiteEvidence = v.InferOutput<typeof FlowSiteEvidenceSchema>;

export const FlowSitesSchema = v.object({
  key: KeySchema,
  /** The flow's domain: the sessions looked at are this domain's. */
  domain: v.string(),
  /** The flow's sites in its order (sorted by tool, then failed), then other sites the domain's flow logs show, by name. */
  sites: v.array(FlowSiteEvidenceSchema),
});
export type FlowSites = v.InferOutput<typeof FlowSitesSchema>;

/** GET /api/flows/:key/sites?limit= (sessions listed per site; default 50, clamped to 500). */
export const FlowSitesQuerySchema = v.object({
  limit: v.pipe(
    queryInt('limit', SESSIONS_LIMIT_DEFAULT),
    v.transform((n) => Math.min(n, SESSIONS_LIMIT_MAX)),
  ),
});
