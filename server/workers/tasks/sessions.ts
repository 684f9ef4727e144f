// Worker tasks of the sessions area: reading and parsing a whole session log (with its flow and
// confirmation logs) runs here, off the event loop. Each answers plain data: the view, or why the file is
// not a session log this engine can read.
import { closeSync, openSync, writeFileSync, writeSync, writevSync } from 'node:fs';
import { serialize } from 'node:v8';
import { fileStamp, openStamped, stampNow } from '../../store/stamp.ts';
import { sessionIndex } from '../../engine/session/views.ts';
import type { SessionComparison } from '../../../shared/compare.ts';
import type { SessionDetail, SessionSummary } from '../../../shared/sessions.ts';
import { compareSessions } from '../../engine/compare.ts';
import { type IndexedSummary, type OpenedFiles, type SessionFiles, sessionDetail, sessionDetailBytes, sessionSummary } from '../../engine/sessions.ts';
import { type Result, attempt, failure, ok } from '../../result.ts';
import { type IndexItem, IndexPacker, type IndexResult, unpackBatch } from '../../store/index-wire.ts';
import { FILTER_READ_MAX, sessionFilter } from '../../search/filter-files.ts';

/** One session's full view. */
export function sessionDetailTask(files: SessionFiles): Result<SessionDetail> {
  return attempt(() => sessionDetail(files));
}

function writeOutline(files: SessionFiles, out: string): number {
  const text = Buffer.from(JSON.stringify(sessionIndex(files)), 'utf8');
  writeFileSync(out, text, { mode: 0o600, flag: 'wx' });
  return text.byteLength;
}

/**
 * The session page's outline of a big log, written to `out` (a new file in the spool), with the stamp it was
 * made from (taken first, so a log that changes meanwhile is seen to), and its size.
 */
export function sessionOutlineFileTask(input: { files: SessionFiles; out: string }): Result<{ stamp: string; bytes: number }> {
  return attempt(() => {
    const stamp = stampNow(input.files);
    return { stamp, bytes: writeOutline(input.files, input.out) };
  });
}

/**
 * One session's full view as UTF-8 JSON, written to `out` (a new file in the console's private spool), and
 * its size; or why it cannot be read. A big log's view is tens of MB: sent back through the worker's channel
 * it would be copied and decoded on the event loop in one piece (store/detail-cache.ts).
 */
export function sessionDetailFileTask(input: { files: SessionFiles; out: string }): Result<number> {
  return attempt(() => {
    const chunks = sessionDetailBytes(input.files);
    const fd = openSync(input.out, 'wx', 0o600);
    let bytes = 0;
    try {
      // writev takes at most IOV_MAX (1024) buffers at a time.
      for (let i = 0; i < chunks.length; i += 512) {
        const part = chunks.slice(i, i + 512);
        const want = part.reduce((n, c) => n + c.byteLength, 0);
        let wrote = writevSync(fd, part);
        // A short write (a full disk reports it as an error; a signal can cut one short): finish it.
        while (wrote < want) wrote += writeSync(fd, Buffer.concat(part).subarray(wrote));
        bytes += want;
      }
    } finally {
      closeSync(fd);
    }
    return bytes;
  });
}

/** Two sessions lined up (engine/compare.ts); an unreadable log answers which side it is and why. */
export function compareSessionsTask(input: {
  a: SessionFiles;
  b: SessionFiles;
}): Result<SessionComparison, { ok: false; side: 'a' | 'b'; message: string }> {
  const a = sessionDetailTask(input.a);
  if (!a.ok) return { ok: false, side: 'a', message: a.message };
  const b = sessionDetailTask(input.b);
  if (!b.ok) return { ok: false, side: 'b', message: b.message };
  return ok(compareSessions(a.value, b.value));
}

/**
 * Stamp and summarize logs for the index. The stamps are taken before the files are read, so a log that
 * changes while it is read is read again on the next change notice or sweep, never missed.
 */
export function indexSessionsTask(items: IndexItem[]): IndexResult[] {
  return items.map(indexOne);
}

function indexOne(item: IndexItem): IndexResult {
  return item.known === null ? indexNew(item) : indexKnown(item);
}

/** A log the index holds: stat'd first, as most are unchanged, and read only when they changed. */
function indexKnown(item: IndexItem): IndexResult {
  const log = fileStamp(item.path);
  const stamp = `${log.stamp}|${fileStamp(item.flowLog).stamp}|${fileStamp(item.confirmLog).stamp}`;
  if (stamp === item.known) return { stamp, mtimeMs: log.mtimeMs, unchanged: true };
  return summarize(item, stamp, log);
}

/** A log the index does not hold yet (a cold start reads every one): the log and its flow log are stamped from the descriptors they are read from. */
function indexNew(item: IndexItem): IndexResult {
  const log = openStamped(item.path);
  const flow = item.flowLog === null ? null : openStamped(item.flowLog);
  try {
    const stamp = `${log.stamp}|${flow?.stamp ?? '-'}|${fileStamp(item.confirmLog).stamp}`;
    return summarize(item, stamp, log, { log: log.opened, flow: flow?.opened });
  } finally {
    if (log.opened) closeSync(log.opened.fd);
    if (flow?.opened) closeSync(flow.opened.fd);
  }
}

function summarize(item: IndexItem, stamp: string, log: { stamp: string; mtimeMs: number; size: number }, opened?: OpenedFiles): IndexResult {
  if (log.stamp === '-') return { stamp, mtimeMs: 0, unchanged: false, result: failure('the log is gone') };
  if (item.bigFrom !== undefined && log.size >= item.bigFrom) return { stamp, mtimeMs: log.mtimeMs, unchanged: false, big: true };
  const result = attempt(() => sessionSummary(item, opened));
  if (!result.ok) return { stamp, mtimeMs: log.mtimeMs, unchanged: false, result };
  const filter = item.filter && log.size <= FILTER_READ_MAX ? sessionFilter(item, opened) : null;
  const read: IndexResult = { stamp, mtimeMs: log.mtimeMs, unchanged: false, result, ...(filter ? { filter } : {}) };
  if (item.outlineTo === undefined) return read;
  // The outline is a convenience: a log whose outline cannot be made is still listed.
  const outline = attempt(() => writeOutline(item, item.outlineTo!));
  return outline.ok ? { ...read, outlineBytes: outline.value } : read;
}

/** indexSessionsTask over a batch packed by the store, its answers packed (store/index-wire.ts). */
export function indexSessionsPackedTask(items: Uint8Array): Uint8Array {
  // One log at a time, each answer packed as it comes (see IndexPacker).
  const batch = unpackBatch(items);
  const packer = new IndexPacker(batch.count);
  for (let i = 0; i < batch.count; i++) packer.add(indexOne(batch.item(i)));
  return serialize(packer.finish());
}
