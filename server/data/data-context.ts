// What a data function works with: the parts of State (state.ts) below the HTTP layer. The data layer takes
// this, not State, so it never depends on the job runner or the event hub, which import it.
import type { Job, OptionalJobKind } from '../../shared/jobs.ts';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';
import type { Pool } from '../workers/pool.ts';
import type { Catalog, SessionFile } from './catalog.ts';
import type { DataCaches } from './data-caches.ts';

/** The jobs as the overview lists them (jobs/runner.ts). */
export interface JobLister {
  list(): Promise<Job[]>;
}

/** Whether the engine CLI offers an optional command, and how that was found (jobs/commands.ts). */
export interface CommandOffers {
  offer(command: OptionalJobKind): Promise<{ offered: boolean; why: string }>;
}

export interface DataContext {
  config: Config;
  /** The catalog as of this request: the store's, with what the watcher has seen applied. */
  catalog(): Promise<Catalog>;
  /** One session by its key, as the catalog has it; at start, as soon as its key is settled (store.ts). */
  session(key: string): Promise<SessionFile | undefined>;
  /** The one live index of the data directory (store/store.ts). */
  store: Store;
  /** What the data layer keeps between requests (data/data-caches.ts). */
  caches: DataCaches;
  pool: Pool;
  jobs: JobLister;
  commands: CommandOffers;
}
