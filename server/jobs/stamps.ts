// What a job wrote: its planned artifacts are stamped before the CLI starts and again when it ends, and only
// those it created or changed are listed. A file's stamp is its device, inode, size and mtime in ns; a
// directory's adds the stamps of everything under it (redact writes a tree), so a file rewritten in place
// with the same size still shows in its mtime.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Entries looked at under one directory artifact; past this a directory counts as changed. */
const DIR_STAMP_ENTRIES_MAX = 20_000;

async function fileStamp(path: string): Promise<string | null> {
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
    parts.push(`${e.name}=${await fileStamp(path)}`);
    if (e.isDirectory()) parts.push(`[${await treeStamp(path, budget)}]`);
  }
  return parts.join('|');
}

/** The stamp of `path` now: null when nothing is there. */
export async function stampOf(path: string): Promise<string | null> {
  const own = await fileStamp(path);
  if (own === null || !own.endsWith(':d')) return own;
  return `${own}{${await treeStamp(path, { left: DIR_STAMP_ENTRIES_MAX })}}`;
}

/** Something is at `path` now, and it was not there before or is not the same as it was. */
export async function changedSince(path: string, before: string | null): Promise<boolean> {
  const now = await stampOf(path);
  if (now === null) return false;
  return before === null || now !== before || now.endsWith('|overflow}');
}
