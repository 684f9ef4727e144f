// A log's stamp: what says that its files changed (their sizes and modification times), compared with the
// stamp its summary was made from. Taken by the index task, the sweep's task and the detail cache alike.
import { closeSync, fstatSync, openSync, statSync } from 'node:fs';

/** One file's stamp (`size:mtime`, `-` when it is missing), with what the index keeps of its stat. */
export function fileStamp(path: string | null): { stamp: string; mtimeMs: number; size: number } {
  if (path === null) return { stamp: '-', mtimeMs: 0, size: 0 };
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? { stamp: `${st.size}:${st.mtimeMs}`, mtimeMs: st.mtimeMs, size: st.size } : { stamp: '-', mtimeMs: 0, size: 0 };
}

/**
 * A file opened to be read, stamped from its own descriptor (one stat fewer than fileStamp and then an open).
 * `fd` is null when it cannot be opened: its stamp is then fileStamp's, and a reader that opens it by path
 * says why. The caller closes `fd`.
 */
export function openStamped(path: string): { stamp: string; mtimeMs: number; size: number; fd: number | null } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { ...fileStamp(path), fd: null };
  }
  try {
    const st = fstatSync(fd);
    return { stamp: `${st.size}:${st.mtimeMs}`, mtimeMs: st.mtimeMs, size: st.size, fd };
  } catch {
    closeSync(fd);
    return { ...fileStamp(path), fd: null };
  }
}

/** A log's stamps as the index task writes them (`log|flow log|confirm log`). */
export function stampNow(e: { path: string; flowLog: string | null; confirmLog: string | null }): string {
  return `${fileStamp(e.path).stamp}|${fileStamp(e.flowLog).stamp}|${fileStamp(e.confirmLog).stamp}`;
}
