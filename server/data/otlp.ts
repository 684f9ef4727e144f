// Sessions as OTLP for the downloads: one session's ExportTraceServiceRequest, or every session a list
// query matches as JSON Lines (the Collector's file exporter's format), made in the pool a batch at a time
// and written by the workers to the spool, so a big export never stalls other requests, is sent as it is made
// and never passes through the main thread's heap.
import type { SessionsOtlpQuery } from '../../shared/otlp.ts';
import type { DataContext } from './data-context.ts';
import { VERSION } from '../version.ts';
import type { SessionFile } from './catalog.ts';
import { sessionsMatching, UnreadableSession } from './sessions.ts';
import type { TraceOptions } from '../engine/otlp/spans.ts';
import type { SpooledFile } from '../store/spool.ts';
import { WorkerDied } from '../workers/pool.ts';
import { batchSize } from './export-batches.ts';
import type { OtlpSessionFiles, OtlpSkipped } from '../workers/tasks/otlp.ts';

/** Made batches that may wait in the spool behind a slower one (up to some 5 MB each: export-batches.ts). */
const WAITING_MAX = 8;

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
  return [...(await sessionsMatching(state, { ...query, limit: Number.MAX_SAFE_INTEGER, offset: 0 }))];
}

/** What the list export works with: the pool makes the batches, the store's spool holds them. */
export type ExportContext = Pick<DataContext, 'store' | 'pool'>;

interface BatchLines {
  parts: SpooledFile[];
  skipped: OtlpSkipped[];
}

/**
 * One batch's lines, written by a worker to the spool. A batch whose worker died (a log that needs more than
 * a worker's heap) is made again a session at a time, so only the session that kills its worker is left out.
 */
async function batchLines(state: ExportContext, batch: OtlpSessionFiles[], options: TraceOptions): Promise<BatchLines> {
  const spool = state.store.spool;
  const run = async (sessions: OtlpSessionFiles[]): Promise<BatchLines> => {
    const out = spool.file('otlp.jsonl');
    try {
      const r = await state.pool.run('sessionsOtlpFileTask', { sessions, options, out });
      return { parts: r.bytes > 0 ? [{ file: out, bytes: r.bytes }] : [], skipped: r.failed };
    } catch (err) {
      spool.remove(out);
      throw err;
    }
  };
  const alone = (s: OtlpSessionFiles): Promise<BatchLines> =>
    run([s]).catch((err: unknown) => {
      if (err instanceof WorkerDied) return { parts: [], skipped: [{ rel: s.rel, message: err.message }] };
      throw err;
    });
  if (batch.length === 1) return alone(batch[0]!);
  try {
    return await run(batch);
  } catch (err) {
    if (!(err instanceof WorkerDied)) throw err;
  }
  const settled = await Promise.allSettled(batch.map(alone));
  const out: BatchLines = { parts: [], skipped: [] };
  let failure: unknown = null;
  for (const r of settled) {
    if (r.status === 'rejected') failure ??= r.reason;
    else {
      out.parts.push(...r.value.parts);
      out.skipped.push(...r.value.skipped);
    }
  }
  if (failure === null) return out;
  for (const p of out.parts) spool.remove(p.file);
  throw failure;
}

/**
 * The JSON Lines of the sessions as spool files, a batch at a time, in order; each file is removed once the
 * caller asks for the next (or stops). Sessions left out (unreadable, or too big for a worker) are added to
 * `skipped`. Two batches a worker are kept running (sized by export-batches.ts), refilled as any of them ends
 * rather than as the oldest is sent, so a slow batch (a 100 MB log) does not leave the other worker idle; at
 * most WAITING_MAX made batches wait in the spool for their turn.
 */
export async function* sessionsOtlpLines(state: ExportContext, files: SessionFile[], payloads: boolean, skipped: OtlpSkipped[]): AsyncGenerator<SpooledFile> {
  const spool = state.store.spool;
  const options: TraceOptions = { payloads, version: VERSION };
  const running = state.pool.threads * 2;
  const inFlight: Promise<BatchLines>[] = [];
  let active = 0;
  let next = 0;
  let given = 0;
  let stopped = false;
  const settled = (): void => {
    active--;
    refill();
  };
  const refill = (): void => {
    while (!stopped && active < running && inFlight.length < WAITING_MAX && next < files.length) {
      const size = batchSize(files.length - next, running, given++);
      const made = batchLines(state, files.slice(next, next + size).map(filesOf), options);
      active++;
      // Awaited in turn below; handled here too, so a rejection before its turn is not an unhandled one.
      made.then(settled, settled);
      inFlight.push(made);
      next += size;
    }
  };
  let held: SpooledFile[] = [];
  // The index lane's put-off work waits until the export ends: it would take CPU from the batches.
  const release = state.store.putOff.hold();
  try {
    refill();
    while (inFlight.length > 0) {
      const r = await inFlight.shift()!;
      refill();
      skipped.push(...r.skipped);
      held = r.parts;
      while (held.length > 0) {
        yield held[0]!;
        spool.remove(held.shift()!.file);
      }
    }
  } finally {
    // Stopped early (the client went away, or a batch failed): no batch's file stays behind.
    stopped = true;
    release();
    for (const p of held) spool.remove(p.file);
    for (const made of inFlight) made.then((r) => r.parts.forEach((p) => spool.remove(p.file)), () => undefined);
  }
}
