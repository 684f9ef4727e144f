// What the data layer keeps between requests, held on State: parsed files by stamp, the session page's
// recent outlines, and the one-at-a-time queue of stage writes. Nothing here imports State (no cycle).
import type { LoadedFlow } from '../workers/tasks/flows.ts';
import type { OutlineIndex } from '../engine/session/views.ts';
import { StampCache } from './cache.ts';
import { KeyedQueue } from './keyed-queue.ts';
import type { FlowFacts } from './registry.ts';
import type { DriftCheck } from '../../shared/drift.ts';
import type { OutlinedDecision } from '../engine/whatif.ts';

/** The tools a session listed, as a flow page shows them. */
export type ListedTools = { name: string; read_only_hint: boolean | null; contract: string | null }[];

export class DataCaches {
  /** Flow files as loaded in the pool (data/flows.ts). */
  readonly flows = new StampCache<LoadedFlow>();
  /** The tools each session listed: a flow page refreshes often, its session rarely changes. */
  readonly listings = new StampCache<ListedTools>();
  /** What the registry needs of each server's flow file (data/server-context.ts), by its path. */
  readonly serverFlows = new StampCache<FlowFacts>();
  /** By session log: the line that shows the flow's first decision at each site (data/flow-evidence-lines.ts). */
  readonly decisionLines = new StampCache<Map<string, number | null>>();
  /** The session page's outlines of the last few sessions opened, by log path (data/session-views.ts). */
  readonly outlines = new Map<string, { stamp: string; index: Promise<OutlineIndex> }>();
  /** Drift checks read from their jobs' reports, by job and finish, stamped by the report (data/drift-checks.ts). */
  readonly driftChecks = new StampCache<DriftCheck>();
  /** By flow log: its decisions as the threshold what-if reads them, null when it does not read (data/whatif.ts). */
  readonly whatIfOutlines = new StampCache<OutlinedDecision[] | null>();
  /** Commits and rollbacks, one at a time per deployment (data/stage.ts). */
  readonly stageQueue = new KeyedQueue();
}
