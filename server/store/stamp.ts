// A log's stamp: what says that its files changed (their sizes and modification times), compared with the
// stamp its summary was made from. Taken by the index task, the sweep's task and the detail cache alike.
import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import type { OpenedFile } from '../engine/session/opened.ts';

/** The stamp of a file's stat: `size:mtime` (the format every cache of the console compares). */
export function statStamp(st: { size: number; mtimeMs: number }): string {
  return `${st.size}:${st.mtimeMs}`;
}

/** One file's stamp (`size:mtime`, `-` when it is missing), with what the index keeps of its stat. */
export function fileStamp(path: string | null): { stamp: string; mtimeMs: number; size: number } {
  if (path === null) return { stamp: '-', mtimeMs: 0, size: 0 };
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? { stamp: statStamp(st), mtimeMs: st.mtimeMs, size: st.size } : { stamp: '-', mtimeMs: 0, size: 0 };
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
    const st = fstatSync(fd);
    return { stamp: statStamp(st), mtimeMs: st.mtimeMs, size: st.size, opened: { fd, size: st.size } };
  } catch {
    closeSync(fd);
    return fileStamp(path);
  }
}

/** A log's stamps as the index task writes them (`log|flow log|confirm log`). */
export function stampNow(e: { path: string; flowLog: string | null; confirmLog: string | null }): string {
  return `${fileStamp(e.path).stamp}|${fileStamp(e.flowLog).stamp}|${fileStamp(e.confirmLog).stamp}`;
}
