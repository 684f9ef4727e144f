// Posting one session's spans to the collector with the official exporters: OTLP/HTTP protobuf through
// @opentelemetry/exporter-trace-otlp-proto, OTLP/HTTP JSON through the same HTTP delegate with the JSON
// serializer. Both retry 429, 502, 503, 504 and network errors with backoff within their timeout; a send
// that still fails rejects with the exporter's message (the header values are never in it).
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { OtlpSettings } from './settings.ts';

/** How long one send may take, its retries included, before it counts as failed. */
const SEND_TIMEOUT_MS = 10_000;

export interface TraceSender {
  send(spans: ReadableSpan[]): Promise<void>;
  shutdown(): Promise<void>;
}

export function traceSender(s: Pick<OtlpSettings, 'url' | 'headers' | 'protocol'>, timeoutMillis = SEND_TIMEOUT_MS): TraceSender {
  const config = { url: s.url, headers: s.headers, timeoutMillis };
  const exporter: OTLPExporterBase<ReadableSpan[]> =
    s.protocol === 'http/json'
      ? new OTLPExporterBase(
          createOtlpHttpExportDelegate(
            convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
            JsonTraceSerializer,
            'otlp_http_span_exporter',
            TraceExporterMetricsHelper,
            undefined,
          ),
        )
      : new OTLPTraceExporter(config);
  return {
    send: (spans) =>
      new Promise<void>((resolve, reject) => {
        exporter.export(spans, (r: ExportResult) => {
          if (r.code === ExportResultCode.SUCCESS) resolve();
          else reject(new Error(`${s.url}: ${r.error?.message ?? 'the collector did not take the spans'}`));
        });
      }),
    shutdown: () => exporter.shutdown(),
  };
}
