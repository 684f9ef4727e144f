// What every route factory is handed: the configuration and the long-lived parts (catalog, caches, worker
// pool, event hub). Built once by start.ts.
import type { Config } from './config.ts';
import type { Catalog } from './data/catalog.ts';
import type { StampCache } from './data/cache.ts';
import type { SessionSummaryResult } from './data/sessions.ts';
import type { Hub } from './events/hub.ts';
import type { JobRunner } from './jobs/runner.ts';
import type { Pool } from './workers/pool.ts';

export interface State {
  config: Config;
  /** A fresh scan of the data directory (keys, companions). */
  catalog(): Promise<Catalog>;
  pool: Pool;
  hub: Hub;
  /** Session summaries (or why a log is unreadable) by log path and stamps. */
  sessionCache: StampCache<SessionSummaryResult>;
  /** The job queue and its runner (jobs/runner.ts). */
  jobs: JobRunner;
}
