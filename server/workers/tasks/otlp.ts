// Worker tasks of the OTLP export: sessions as OTLP/JSON lines for the downloads (a batch's lines written to a
// spool file, so the main thread sends them from disk and never holds or copies them), and one session's
// request in the collector's protocol for the stream (the main thread only posts its bytes).
import { closeSync, openSync } from 'node:fs';
import { otlpJson, traceRequest, type TraceRequest } from '../../engine/otlp/encode.ts';
import type { OtlpProtocol } from '../../../shared/otlp.ts';
import { readableSpans } from '../../engine/otlp/readable.ts';
import { sessionTrace, type TraceOptions } from '../../engine/otlp/spans.ts';
import { type Result, attempt } from '../../result.ts';
import { errorText } from '../../../shared/error-text.ts';
import { writeParts } from '../write-parts.ts';

export interface OtlpSessionFiles {
  rel: string;
  path: string;
  flowLog: string | null;
}

const NEWLINE = new Uint8Array([0x0a]);

/** A session left out of an export, and why. */
export interface OtlpSkipped {
  rel: string;
  message: string;
}

/**
 * One ExportTraceServiceRequest per session, each on its own line, as the bytes the answer sends (never
 * decoded to text and encoded again); logs that do not read are named apart.
 */
export function sessionsOtlpJsonTask(input: { sessions: OtlpSessionFiles[]; options: TraceOptions }): { lines: Uint8Array; failed: OtlpSkipped[] } {
  const parts: Uint8Array[] = [];
  const failed: OtlpSkipped[] = [];
  for (const files of input.sessions) {
    try {
      parts.push(otlpJson(readableSpans(sessionTrace(files, input.options))), NEWLINE);
    } catch (e) {
      failed.push({ rel: files.rel, message: errorText(e) });
    }
  }
  return { lines: Buffer.concat(parts), failed };
}

/** Lines gathered before they are written: few system calls, little held in the heap. */
const FLUSH_BYTES = 1024 * 1024;

/**
 * The same lines as sessionsOtlpJsonTask, written to `out` (a new file in the console's spool) as they are
 * made; answers how many bytes it holds and the logs left out.
 */
export function sessionsOtlpFileTask(input: { sessions: OtlpSessionFiles[]; options: TraceOptions; out: string }): { bytes: number; failed: OtlpSkipped[] } {
  const failed: OtlpSkipped[] = [];
  const fd = openSync(input.out, 'wx', 0o600);
  let bytes = 0;
  try {
    let parts: Uint8Array[] = [];
    let held = 0;
    for (const files of input.sessions) {
      try {
        const line = otlpJson(readableSpans(sessionTrace(files, input.options)));
        parts.push(line, NEWLINE);
        held += line.byteLength + 1;
      } catch (e) {
        failed.push({ rel: files.rel, message: errorText(e) });
      }
      if (held < FLUSH_BYTES) continue;
      bytes += writeParts(fd, parts);
      parts = [];
      held = 0;
    }
    bytes += writeParts(fd, parts);
  } finally {
    closeSync(fd);
  }
  return { bytes, failed };
}

export function sessionRequestTask(input: { files: OtlpSessionFiles; options: TraceOptions; protocol: OtlpProtocol }): Result<TraceRequest> {
  return attempt(() => traceRequest(readableSpans(sessionTrace(input.files, input.options)), input.protocol));
}
