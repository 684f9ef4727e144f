// A log's stamp: what says that its files changed (device, inode, size and modification time in ns of the
// log and each companion), compared with the stamp its summary was made from. Exact to the nanosecond and
// the inode, because a stamp saved by one run (persisted-index.ts) vouches for a summary in the next: a file
// rewritten at the same size within a millisecond, or swapped with another, must not pass as unchanged.
// Taken by the index task, the sweep's task and the detail cache alike.
import { type BigIntStats, closeSync, fstatSync, openSync, statSync } from 'node:fs';
import type { OpenedFile } from '../engine/session/opened.ts';

/** The stamp of a file's stat: `size:mtime` (what the flows' and servers' caches compare within one run). */
export function statStamp(st: { size: number; mtimeMs: number }): string {
  return `${st.size}:${st.mtimeMs}`;
}

/** A log file's stamp: `dev:ino:size:mtime ns`. */
function exactStamp(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
}

const MISSING = { stamp: '-', mtimeMs: 0, size: 0 };

/** One file's stamp (`dev:ino:size:mtime ns`, `-` when it is missing), with what the index keeps of its stat. */
export function fileStamp(path: string | null): { stamp: string; mtimeMs: number; size: number } {
  if (path === null) return MISSING;
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? { stamp: exactStamp(st), mtimeMs: Number(st.mtimeMs), size: Number(st.size) } : MISSING;
}

/**
 * A file opened to be read, stamped from its own descriptor (one stat fewer than fileStamp and then an open).
 * `opened` is undefined when it cannot be opened: its stamp is then fileStamp's, and a reader that opens it
 * by path says why. The caller closes `opened.fd`.
 */
export function openStamped(path: string): { stamp: string; mtimeMs: number; size: number; opened?: OpenedFile } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return fileStamp(path);
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    return { stamp: exactStamp(st), mtimeMs: Number(st.mtimeMs), size, opened: { fd, size } };
  } catch {
    closeSync(fd);
    return fileStamp(path);
  }
}

/** A log's stamps as the index task writes them (`log|flow log|confirm log`). */
export function stampNow(e: { path: string; flowLog: string | null; confirmLog: string | null }): string {
  return `${fileStamp(e.path).stamp}|${fileStamp(e.flowLog).stamp}|${fileStamp(e.confirmLog).stamp}`;
}
