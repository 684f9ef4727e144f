// What every route factory is handed: the configuration and the long-lived parts (the store of the data
// directory, the worker pool, the event hub, the job runner). Built once by start.ts.
import type { Config } from './config.ts';
import type { Catalog } from './data/catalog.ts';
import type { DataCaches } from './data/data-caches.ts';
import type { Hub } from './events/hub.ts';
import type { JobRunner } from './jobs/runner.ts';
import type { Store } from './store/store.ts';
import type { Pool } from './workers/pool.ts';
import type { OtlpStreamer } from './otlp/running-stream.ts';

export interface State {
  config: Config;
  /** The catalog as of this request: the store's, with what the watcher has seen applied. */
  catalog(): Promise<Catalog>;
  /** The one live index of the data directory (store/store.ts). */
  store: Store;
  /** What the data layer keeps between requests (data/data-caches.ts). */
  caches: DataCaches;
  pool: Pool;
  hub: Hub;
  /** The job queue and its runner (jobs/runner.ts). */
  jobs: JobRunner;
  /** Ended sessions streamed to a collector, once started (otlp/streamer.ts); null when not streaming. */
  otlp?: OtlpStreamer | null;
}
