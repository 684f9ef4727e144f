// The wire formats, made by the official OTLP transformer (never by hand): OTLP/JSON, one
// ExportTraceServiceRequest per session (a line of the Collector's file exporter), and OTLP/protobuf.
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { OtlpProtocol } from '../../../shared/otlp.ts';

/** One session's request as the wire format's bytes, made in a worker, with its span count. */
export interface TraceRequest {
  bytes: Uint8Array;
  spans: number;
}

/** One ExportTraceServiceRequest as OTLP/JSON bytes, on one line. */
export function otlpJson(spans: ReadableSpan[]): Uint8Array {
  const out = JsonTraceSerializer.serializeRequest(spans);
  if (out === undefined) throw new Error('the OTLP transformer made no JSON of these spans');
  return out;
}

/** One ExportTraceServiceRequest as OTLP/protobuf bytes. */
export function otlpProtobuf(spans: ReadableSpan[]): Uint8Array {
  const out = ProtobufTraceSerializer.serializeRequest(spans);
  if (out === undefined) throw new Error('the OTLP transformer made no protobuf of these spans');
  return out;
}

/** The request in the collector's protocol. */
export function traceRequest(spans: ReadableSpan[], protocol: OtlpProtocol): TraceRequest {
  return { bytes: protocol === 'http/json' ? otlpJson(spans) : otlpProtobuf(spans), spans: spans.length };
}
