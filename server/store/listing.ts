// How the scan lists one directory and walks the tree (console-api.md §3.2: three levels, `oracle-cache/` and
// the console's own `console/` skipped, a symbolic link followed only while it stays inside). Pure file-system
// reads with no state, so the same rules serve the live tree (tree.ts, one directory at a time) and the
// first walk, which runs in the worker pool (workers/tasks/tree.ts): at 100k sessions the first walk lists
// and stamps some 160k files, a second or two that must not stall the event loop.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SCAN_DEPTH } from '../../shared/limits.ts';
import { insideDir } from '../engine/scan.ts';

export type EntryKind = 'dir' | 'file';

export interface Listing {
  /** Name → what it is once links are resolved, by name (other entries are not kept). */
  entries: Map<string, EntryKind>;
  /** Names that are links (re-resolved on each refresh). */
  links: Set<string>;
}

export const inoOf = (path: string): bigint | null => statSync(path, { bigint: true, throwIfNoEntry: false })?.ino ?? null;

export const dirStampOf = (path: string): string | null => {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.mtimeNs}:${st.ctimeNs}:${st.ino}` : null;
};

/** Read a directory of the tree rooted at `root`: null when it cannot be read. */
export function listDir(path: string, root: string, consoleDir: string): Listing | null {
  let dirents;
  try {
    dirents = readdirSync(path, { withFileTypes: true });
  } catch {
    return null;
  }
  const entries = new Map<string, EntryKind>();
  const links = new Set<string>();
  // By code unit, as the scan orders (the default sort, natively: a 50k-entry directory is common).
  const byName = new Map(dirents.map((d) => [d.name, d]));
  const names = [...byName.keys()].sort();
  for (const name of names) {
    const d = byName.get(name)!;
    if (name === 'console' && join(path, name) === consoleDir) continue;
    if (d.isSymbolicLink()) {
      const full = join(path, name);
      links.add(name);
      try {
        if (!insideDir(realpathSync(full), root)) continue;
        const st = statSync(full);
        if (st.isDirectory()) entries.set(name, 'dir');
        else if (st.isFile()) entries.set(name, 'file');
      } catch {
        // dangling or unreadable: not in reach
      }
    } else if (d.isDirectory()) entries.set(name, 'dir');
    else if (d.isFile()) entries.set(name, 'file');
  }
  return { entries, links };
}

/** Whether the walk goes into a directory entry found at `depth`. */
export const entersDir = (depth: number, name: string): boolean => depth < SCAN_DEPTH && name !== 'oracle-cache';

/**
 * One directory as the first walk found it, in a form that crosses from a worker cheaply: its entries' names
 * joined by NUL (a byte no file name holds) and one letter per entry (`d`/`f`), not 160k small objects.
 */
export interface WalkedDir {
  path: string;
  rel: string;
  depth: number;
  names: string;
  kinds: string;
  links: string[];
  /** The directory's stamp and inode when it was listed: the tree compares them once its watch is set. */
  stamp: string | null;
  ino: bigint | null;
}

export const NAME_SEP = '\u0000';

/**
 * Walk the tree depth-first (a parent before its children, entries by name), as the scan does. `visit` sees
 * each directory's listing as it is read (the first walk picks the session logs out of it).
 */
export function walkTree(root: string, visit?: (dir: { path: string; rel: string }, entries: ReadonlyMap<string, EntryKind>) => void): WalkedDir[] {
  const consoleDir = join(root, 'console');
  const out: WalkedDir[] = [];
  const walk = (path: string, rel: string, depth: number) => {
    const stamp = dirStampOf(path);
    const listing = listDir(path, root, consoleDir);
    if (listing === null) return;
    visit?.({ path, rel }, listing.entries);
    const names: string[] = [];
    let kinds = '';
    const children: string[] = [];
    for (const [name, kind] of listing.entries) {
      if (kind === 'dir') {
        if (!entersDir(depth, name)) continue;
        children.push(name);
      }
      names.push(name);
      kinds += kind === 'dir' ? 'd' : 'f';
    }
    out.push({ path, rel, depth, names: names.join(NAME_SEP), kinds, links: [...listing.links], stamp, ino: inoOf(path) });
    for (const name of children) walk(join(path, name), rel ? `${rel}/${name}` : name, depth + 1);
  };
  walk(root, '', 1);
  return out;
}
