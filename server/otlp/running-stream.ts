// What the console's state holds of a running stream to a collector: its status and how to stop it. Apart
// from streamer.ts, which needs the state, so that the state's type does not import it back.
import type { OtlpStatus } from '../../shared/otlp.ts';

export interface OtlpStreamer {
  status(): OtlpStatus;
  stop(): Promise<void>;
}
