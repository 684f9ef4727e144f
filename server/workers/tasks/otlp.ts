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

const decoder = new TextDecoder();

/** One ExportTraceServiceRequest per session, each on its own line; logs that do not read are named apart. */
export function sessionsOtlpJsonTask(input: { sessions: OtlpSessionFiles[]; options: TraceOptions }): { lines: string; failed: { rel: string; message: string }[] } {
  let lines = '';
  const failed: { rel: string; message: string }[] = [];
  for (const files of input.sessions) {
    try {
      lines += `${decoder.decode(otlpJson(readableSpans(sessionTrace(files, input.options))))}\n`;
    } catch (e) {
      failed.push({ rel: files.rel, message: errorText(e) });
    }
  }
  return { lines, failed };
}

export function sessionTraceTask(input: { files: OtlpSessionFiles; options: TraceOptions }): Result<SessionTrace> {
  return attempt(() => sessionTrace(input.files, input.options));
}
