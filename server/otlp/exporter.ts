// Posting one session's ExportTraceServiceRequest to the collector through the official OTLP/HTTP export
// delegate (@opentelemetry/otlp-exporter-base), set up as the official OTLPTraceExporter sets it up, for
// protobuf or JSON. The request's bytes are made in a worker by the official serializer (encode.ts), so the
// event loop never maps or encodes spans: the delegate is given a serializer that hands those bytes on.
// It retries 429, 502, 503, 504 and network errors with backoff within its timeout; a send that still fails
// rejects with the exporter's message (the header values are never in it).
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer, type IExporterMetricsHelper, type IExportTraceServiceResponse, type ISerializer } from '@opentelemetry/otlp-transformer';
import type { TraceRequest } from '../engine/otlp/encode.ts';
import type { OtlpSettings } from './settings.ts';

/** How long one send may take, its retries included, before it counts as failed. */
const SEND_TIMEOUT_MS = 10_000;

export interface TraceSender {
  send(request: TraceRequest): Promise<void>;
  shutdown(): Promise<void>;
}

/** The official exporters' component name (its self-observability metrics name the exporter by it). */
const COMPONENT = 'otlp_http_span_exporter';

/** What the delegate counts a request as: its spans, as the official trace exporters count them. */
const SPANS_HELPER: IExporterMetricsHelper<TraceRequest> = { name: 'span', countItems: (r) => r.spans };

export function traceSender(s: Pick<OtlpSettings, 'url' | 'headers' | 'protocol'>, timeoutMillis = SEND_TIMEOUT_MS): TraceSender {
  const config = { url: s.url, headers: s.headers, timeoutMillis };
  const json = s.protocol === 'http/json';
  const made: ISerializer<TraceRequest, IExportTraceServiceResponse> = {
    serializeRequest: (r) => r.bytes,
    deserializeResponse: (json ? JsonTraceSerializer : ProtobufTraceSerializer).deserializeResponse,
  };
  const contentType = json ? 'application/json' : 'application/x-protobuf';
  const exporter = new OTLPExporterBase<TraceRequest>(
    createOtlpHttpExportDelegate(convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': contentType }), made, COMPONENT, SPANS_HELPER, undefined),
  );
  return {
    send: (request) =>
      new Promise<void>((resolve, reject) => {
        exporter.export(request, (r: ExportResult) => {
          if (r.code === ExportResultCode.SUCCESS) resolve();
          else reject(new Error(`${s.url}: ${r.error?.message ?? 'the collector did not take the spans'}`));
        });
      }),
    shutdown: () => exporter.shutdown(),
  };
}
