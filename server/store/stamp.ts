// Every stamp the console compares: what says that something changed since it was last looked at.
// - A log's: device, inode, size and modification time in ns of the log and each companion, compared with
//   the stamp its summary was made from. Exact to the nanosecond and the inode, because a stamp saved by one
//   run (persisted-index.ts) vouches for a summary in the next: a file rewritten at the same size within a
//   millisecond, or swapped with another, must not pass as unchanged. Taken by the index task, the sweep's
//   task, the detail cache and the flow, job and registry events alike.
// - A directory's (mtime, ctime and inode in ns), which the tree compares to list it again.
// - What a job wrote: its planned artifacts are stamped before the CLI starts and again when it ends, and
//   only those it created or changed are listed. An artifact's stamp is its device, inode, size and mtime in
//   ns; a directory's adds the stamps of everything under it (redact writes a tree), so a file rewritten in
//   place with the same size still shows in its mtime.
import type { Dirent } from 'node:fs';
import { type BigIntStats, closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpenedFile } from '../engine/session/opened.ts';

/** The stamp of a file's stat: `size:mtime` (what the flows' and servers' caches compare within one run). */
export function statStamp(st: { size: number; mtimeMs: number }): string {
  return `${st.size}:${st.mtimeMs}`;
}

/** A log file's stamp: `dev:ino:size:mtime ns`. */
export function exactStamp(st: BigIntStats): string {
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

/** A directory's stamp: null when it is not there. */
export const dirStamp = (path: string): string | null => {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.mtimeNs}:${st.ctimeNs}:${st.ino}` : null;
};

// ---------------------------------------------------------------------------------------------------------
// What a job wrote
// ---------------------------------------------------------------------------------------------------------

/** Entries looked at under one directory artifact; past this a directory counts as changed. */
const DIR_STAMP_ENTRIES_MAX = 20_000;

async function artifactFileStamp(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.isDirectory() ? 'd' : 'f'}`;
  } catch {
    return null;
  }
}

async function treeStamp(dir: string, budget: { left: number }): Promise<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return '';
  }
  const parts: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (--budget.left < 0) return `${parts.join('|')}|overflow`;
    const path = join(dir, e.name);
    parts.push(`${e.name}=${await artifactFileStamp(path)}`);
    if (e.isDirectory()) parts.push(`[${await treeStamp(path, budget)}]`);
  }
  return parts.join('|');
}

/** The stamp of `path` now: null when nothing is there. */
export async function artifactStamp(path: string): Promise<string | null> {
  const own = await artifactFileStamp(path);
  if (own === null || !own.endsWith(':d')) return own;
  return `${own}{${await treeStamp(path, { left: DIR_STAMP_ENTRIES_MAX })}}`;
}

/** Something is at `path` now, and it was not there before or is not the same as it was. */
export async function changedSince(path: string, before: string | null): Promise<boolean> {
  const now = await artifactStamp(path);
  if (now === null) return false;
  return before === null || now !== before || now.endsWith('|overflow}');
}
