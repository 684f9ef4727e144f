// What every route factory is handed: the configuration and the long-lived parts (the store of the data
// directory, the worker pool, the event hub, the job runner). Built once by start.ts.
import type { DataContext } from './data/data-context.ts';
import type { Hub } from './events/hub.ts';
import type { EngineCommands } from './jobs/commands.ts';
import type { JobRunner } from './jobs/runner.ts';
import type { OtlpStreamer } from './otlp/running-stream.ts';

export interface State extends DataContext {
  hub: Hub;
  /** The job queue and its runner (jobs/runner.ts). */
  jobs: JobRunner;
  /** Ended sessions streamed to a collector, once started (otlp/streamer.ts); null when not streaming. */
  otlp?: OtlpStreamer | null;
  /** Which optional commands (drift) the engine CLI has (jobs/commands.ts). */
  commands: EngineCommands;
}
