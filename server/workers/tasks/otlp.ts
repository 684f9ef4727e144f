// Worker tasks of the OTLP export: sessions as OTLP/JSON lines for the downloads, and one session's trace
// as plain data for the collector stream (the main thread wraps it for the official exporter).
import { otlpJson } from '../../engine/otlp/encode.ts';
import { readableSpans } from '../../engine/otlp/readable.ts';
import { sessionTrace, type SessionTrace, type TraceOptions } from '../../engine/otlp/spans.ts';
import { type Result, attempt } from '../../result.ts';
import { errorText } from '../../../shared/error-text.ts';

export interface OtlpSessionFiles {
  rel: string;
  path: string;
  flowLog: string | null;
}

const NEWLINE = new Uint8Array([0x0a]);

/**
 * One ExportTraceServiceRequest per session, each on its own line, as the bytes the answer sends (never
 * decoded to text and encoded again); logs that do not read are named apart.
 */
export function sessionsOtlpJsonTask(input: { sessions: OtlpSessionFiles[]; options: TraceOptions }): { lines: Uint8Array; failed: { rel: string; message: string }[] } {
  const parts: Uint8Array[] = [];
  const failed: { rel: string; message: string }[] = [];
  for (const files of input.sessions) {
    try {
      parts.push(otlpJson(readableSpans(sessionTrace(files, input.options))), NEWLINE);
    } catch (e) {
      failed.push({ rel: files.rel, message: errorText(e) });
    }
  }
  return { lines: Buffer.concat(parts), failed };
}

export function sessionTraceTask(input: { files: OtlpSessionFiles; options: TraceOptions }): Result<SessionTrace> {
  return attempt(() => sessionTrace(input.files, input.options));
}
