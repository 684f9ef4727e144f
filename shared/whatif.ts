// What a threshold would change (GET /api/flows/:key/whatif): over the newest sessions of the flow's domain
// in which the flow decided, served or in shadow, the decisions their flow logs recorded, counted as they went
// (`_then`, at the threshold each session ran with) and as they would go at another threshold (`_at`).
import * as v from 'valibot';
import { KeySchema, queryInt } from './common.ts';
import { queryFloat } from './flows.ts';
import { FLOW_THRESHOLD_DEFAULT, WHATIF_SESSIONS_DEFAULT, WHATIF_SESSIONS_MAX } from './limits.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Lookups served and hand-backs, as recorded and at the asked threshold. */
export const WhatIfCountsSchema = v.object({
  served_then: count,
  handed_back_then: count,
  served_at: count,
  handed_back_at: count,
});
export type WhatIfCounts = v.InferOutput<typeof WhatIfCountsSchema>;

export const WhatIfSiteSchema = v.object({ site: v.string(), ...WhatIfCountsSchema.entries });
export type WhatIfSite = v.InferOutput<typeof WhatIfSiteSchema>;

/** A session in which the threshold would change some decision. */
export const WhatIfSessionSchema = v.object({ key: KeySchema, served_then: count, served_at: count });
export type WhatIfSession = v.InferOutput<typeof WhatIfSessionSchema>;

export const WhatIfSchema = v.object({
  threshold: v.number(),
  /** The sessions read (at most the `sessions` asked). */
  sessions: count,
  total: WhatIfCountsSchema,
  /** By site name, sorted. */
  sites: v.array(WhatIfSiteSchema),
  /** Every session in which some decision would change, most changed decisions first (then newest first). */
  changed: v.array(WhatIfSessionSchema),
});
export type WhatIf = v.InferOutput<typeof WhatIfSchema>;

/** ?threshold=T (a probability, default 0.3) &sessions=N (1 to 5,000, default 100; more is read as 5,000). */
export const WhatIfQuerySchema = v.object({
  threshold: queryFloat('threshold', FLOW_THRESHOLD_DEFAULT),
  sessions: v.pipe(
    queryInt('sessions', WHATIF_SESSIONS_DEFAULT),
    v.minValue(1, 'sessions: 1 or more'),
    v.transform((n) => Math.min(n, WHATIF_SESSIONS_MAX)),
  ),
});
export type WhatIfQuery = v.InferOutput<typeof WhatIfQuerySchema>;
