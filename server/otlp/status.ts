// The stream's status as Settings shows it: the streamer's counts once it runs, zeros before, and the
// endpoint as null when no endpoint was given.
import type { OtlpStatus } from '../../shared/otlp.ts';
import type { State } from '../state.ts';

export function otlpStatus(state: State): OtlpStatus {
  if (state.otlp) return state.otlp.status();
  const s = state.config.otlp ?? null;
  return {
    endpoint: s?.url ?? null,
    protocol: s?.protocol ?? 'http/protobuf',
    header_names: s ? Object.keys(s.headers).sort() : [],
    ended_after_ms: s?.endedAfterMs ?? 0,
    sent: 0,
    queued: 0,
    failed: 0,
    dropped: 0,
    last_error: null,
  };
}
