// Streaming ended sessions to an OpenTelemetry collector: where they go (never a header's value), and how
// many were sent, wait, failed and were dropped, with the last error.
import { Show } from 'solid-js';
import type { OtlpStatus } from '../../../../shared/otlp.ts';
import { formatCount } from '../../lib/format.ts';
import { Card } from '../ui/ui.tsx';

export function OtlpCard(props: { status: OtlpStatus }) {
  const s = () => props.status;
  return (
    <Card title="OpenTelemetry" testid="otlp-card">
      <Show
        when={s().endpoint}
        fallback={
          <p class="muted">
            Not streaming. Start with <code>--otlp-endpoint URL</code> (or <code>OTEL_EXPORTER_OTLP_ENDPOINT</code>) to send each ended session as a trace
            to Jaeger, Tempo or a Collector; a session’s OTLP button downloads one.
          </p>
        }
      >
        {(endpoint) => (
          <div class="stack" style={{ gap: '10px' }}>
            <p>
              Each session is sent once its log has had no new line for {Math.round(s().ended_after_ms / 1000)} s, to <code data-testid="otlp-endpoint">{endpoint()}</code> ({s().protocol}
              <Show when={s().header_names.length > 0}>, with the headers {s().header_names.join(', ')}</Show>).
            </p>
            <p data-testid="otlp-counts">
              {formatCount(s().sent)} sent · {formatCount(s().queued)} queued · {formatCount(s().failed)} failed attempts · {formatCount(s().dropped)} dropped
            </p>
            <Show when={s().last_error}>{(e) => <p class="warn">Last error: {e()}</p>}</Show>
          </div>
        )}
      </Show>
    </Card>
  );
}
