// Sessions as OTLP for the downloads: one session's ExportTraceServiceRequest, or every session a list
// query matches as JSON Lines (the Collector's file exporter's format), made in the pool a batch at a time
// so a big export never stalls other requests and is sent as it is made.
import type { SessionsOtlpQuery } from '../../shared/otlp.ts';
import type { DataContext } from './data-context.ts';
import { VERSION } from '../version.ts';
import type { SessionFile } from './catalog.ts';
import { sessionsPage, UnreadableSession } from './sessions.ts';
import type { OtlpSessionFiles } from '../workers/tasks/otlp.ts';

/** Sessions per pool task: small enough to keep the answer flowing, big enough to keep the pool busy. */
const BATCH_SESSIONS = 32;

export class NoSuchSessions extends Error {}

const filesOf = (f: SessionFile): OtlpSessionFiles => ({ rel: f.rel, path: f.path, flowLog: f.flowLog });

/** One session's export as OTLP/JSON bytes (without the line's newline). Throws UnreadableSession. */
export async function sessionOtlp(state: DataContext, file: SessionFile, payloads: boolean): Promise<Buffer> {
  const r = await state.pool.run('sessionsOtlpJsonTask', { sessions: [filesOf(file)], options: { payloads, version: VERSION } });
  const failed = r.failed[0];
  if (failed) throw new UnreadableSession(failed.message);
  const bytes = Buffer.from(r.lines.buffer, r.lines.byteOffset, r.lines.byteLength);
  return bytes.subarray(0, bytes.length - 1);
}

/** The sessions to export: the ticked keys (each must exist), else every match of the list's filters. */
export async function sessionsToExport(state: DataContext, query: SessionsOtlpQuery): Promise<SessionFile[]> {
  const catalog = await state.catalog();
  if (query.keys !== null) {
    const missing = query.keys.filter((k) => !catalog.session(k));
    if (missing.length > 0) throw new NoSuchSessions(`no session ${missing.map((k) => JSON.stringify(k)).join(', ')}`);
    return query.keys.map((k) => catalog.session(k)).filter((f): f is SessionFile => f !== undefined);
  }
  const page = await sessionsPage(state, { ...query, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
  return page.items.map((s) => catalog.session(s.key)).filter((f): f is SessionFile => f !== undefined);
}

/**
 * The JSON Lines of the sessions, a batch at a time, in order; logs that do not read are left out. One
 * batch more than the pool has workers is asked for ahead, so no worker waits while an answer is sent.
 */
export async function* sessionsOtlpLines(state: DataContext, files: SessionFile[], payloads: boolean): AsyncGenerator<Buffer> {
  // A batch whose worker died is left out like an unreadable log, rather than cutting the download short.
  const run = (b: OtlpSessionFiles[]) =>
    state.pool.run('sessionsOtlpJsonTask', { sessions: b, options: { payloads, version: VERSION } }).catch(() => ({ lines: new Uint8Array(0), failed: [] }));
  const ahead = state.pool.threads + 1;
  const inFlight: ReturnType<typeof run>[] = [];
  let next = 0;
  const refill = () => {
    while (inFlight.length < ahead && next < files.length) {
      inFlight.push(run(files.slice(next, next + BATCH_SESSIONS).map(filesOf)));
      next += BATCH_SESSIONS;
    }
  };
  refill();
  while (inFlight.length > 0) {
    const r = await inFlight.shift()!;
    refill();
    if (r.lines.byteLength > 0) yield Buffer.from(r.lines.buffer, r.lines.byteOffset, r.lines.byteLength);
  }
}
