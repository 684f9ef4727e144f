// How the scan lists one directory and walks the tree (console-api.md §3.2: three levels, `oracle-cache/` and
// the console's own `console/` skipped, by real path, a symbolic link followed only while it stays inside). Pure file-system
// reads with no state, so the same rules serve the live tree (tree.ts, one directory at a time) and the
// first walk, which runs in the worker pool (workers/tasks/tree.ts): at 100k sessions the first walk lists
// and stamps some 160k files, a second or two that must not stall the event loop.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SCAN_DEPTH } from '../../shared/limits.ts';
import { insideDir } from '../engine/scan.ts';
import { direntsOf } from './dir-entries.ts';
import { changedLogs, type SavedDir } from './saved-tree.ts';
import { dirStamp } from './stamp.ts';

export type EntryKind = 'dir' | 'file';

export interface Listing {
  /** Name → what it is once links are resolved, by name (other entries are not kept). */
  entries: Map<string, EntryKind>;
  /** Names that are links (re-resolved on each refresh). */
  links: Set<string>;
}

/**
 * The data directory as given, and its `console/` as a real path: what resolves into `console/` (a link to
 * it, or `console/` reached through a link to an ancestor) is out of reach like `console/` itself.
 */
export interface Reach {
  root: string;
  console: string;
}

export function reachOf(root: string): Reach {
  const real = (path: string): string | null => {
    try {
      return realpathSync(path);
    } catch {
      return null;
    }
  };
  return { root, console: real(join(root, 'console')) ?? join(real(root) ?? root, 'console') };
}

/** Whether a directory named `console` is the console's own, compared by real path. */
export function isConsoleDir(full: string, reach: Reach): boolean {
  try {
    return insideDir(realpathSync(full), reach.console);
  } catch {
    return false;
  }
}

export const inoOf = (path: string): bigint | null => statSync(path, { bigint: true, throwIfNoEntry: false })?.ino ?? null;


/** One directory's kept entries: names by code unit, the directories among them, the links among them. */
interface SortedDir {
  names: string[];
  dirs: Set<string>;
  links: string[];
}

// Sorted by code unit, as the scan orders (the default sort, natively: a 50k-entry directory is common).
// Directories and links are few, so only they are kept apart; every other name kept is a regular file.
function readSorted(path: string, reach: Reach): SortedDir | null {
  let dirents;
  try {
    dirents = direntsOf(path);
  } catch {
    return null;
  }
  const names: string[] = [];
  const dirs = new Set<string>();
  const links: string[] = [];
  for (const d of dirents) {
    const name = d.name;
    if (d.isFile()) {
      names.push(name);
    } else if (d.isDirectory()) {
      if (name === 'console' && isConsoleDir(join(path, name), reach)) continue;
      names.push(name);
      dirs.add(name);
    } else if (d.isSymbolicLink()) {
      links.push(name);
      const kind = linkKind(join(path, name), reach);
      if (kind === null) continue;
      names.push(name);
      if (kind === 'dir') dirs.add(name);
    }
  }
  names.sort();
  return { names, dirs, links };
}

/** What a link leads to, when it stays inside the data directory and out of `console/`: null when it leaves, dangles or leads elsewhere. */
export function linkKind(full: string, reach: Reach): EntryKind | null {
  try {
    const real = realpathSync(full);
    if (!insideDir(real, reach.root) || insideDir(real, reach.console)) return null;
    const st = statSync(full);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
  } catch {
    return null; // dangling or unreadable: not in reach
  }
}

/** One entry as a listing would keep it (its kind, null when not kept), and whether it is a link. */
export function entryAt(full: string, reach: Reach): { kind: EntryKind | null; link: boolean } {
  let st;
  try {
    st = lstatSync(full, { throwIfNoEntry: false });
  } catch {
    return { kind: null, link: false };
  }
  if (st === undefined) return { kind: null, link: false };
  if (st.isFile()) return { kind: 'file', link: false };
  if (st.isDirectory()) return { kind: basename(full) === 'console' && isConsoleDir(full, reach) ? null : 'dir', link: false };
  if (st.isSymbolicLink()) return { kind: linkKind(full, reach), link: true };
  return { kind: null, link: false };
}

/** Read a directory of the tree rooted at `root`: null when it cannot be read. */
export function listDir(path: string, reach: Reach): Listing | null {
  const sorted = readSorted(path, reach);
  if (sorted === null) return null;
  const entries = new Map<string, EntryKind>();
  for (const name of sorted.names) entries.set(name, sorted.dirs.has(name) ? 'dir' : 'file');
  return { entries, links: new Set(sorted.links) };
}

/** Whether the walk goes into a directory entry found at `depth`. */
export const entersDir = (depth: number, name: string): boolean => depth < SCAN_DEPTH && name !== 'oracle-cache';

/**
 * One directory as the first walk found it, in a form that crosses from a worker cheaply: its kept entries'
 * names, by code unit, joined by NUL (a byte no file name holds), and which of them are directories the scan
 * enters, not 160k small objects.
 */
export interface WalkedDir {
  path: string;
  rel: string;
  depth: number;
  names: string;
  dirs: string[];
  links: string[];
  /** The directory's stamp and inode when it was listed: the tree compares them once its watch is set. */
  stamp: string | null;
  ino: bigint | null;
  /** When the stamp was taken (ms since the epoch), before the names were listed. */
  stampedAt: number;
  /**
   * Its logs are listed from a saved index (saved-tree.ts), but for those the walk lists: its stamp is the one its
   * names were saved with (it was not read), or it was read and only what changed since is listed (`diffed`).
   */
  kept: boolean;
  diffed: boolean;
  /** How many of its logs are listed from the saved index. */
  savedLogs: number;
  /** A diffed directory's saved session logs that are gone since (by name). */
  gone: string[];
}

export const NAME_SEP = '\u0000';

/**
 * Walk the tree depth-first (a parent before its children, entries by name), as the scan does. `visit` sees
 * each directory's sorted names and the directories among them as it is read, with the index its entry
 * will have in the answer (the first walk picks the session logs out of them). A directory `saved` holds with
 * its stamp now is not read: its saved names are taken, and `visit` is not called for it; one it holds with
 * another stamp is read, and `visit` told the only logs to list (`only`: changedLogs).
 */
export function walkTree(
  root: string,
  visit?: (dir: { path: string; rel: string; index: number }, names: readonly string[], dirs: ReadonlySet<string>, only?: ReadonlyMap<string, boolean>) => void,
  saved: ReadonlyMap<string, SavedDir> = new Map(),
): WalkedDir[] {
  const reach = reachOf(root);
  const out: WalkedDir[] = [];
  const walk = (path: string, rel: string, depth: number) => {
    const stampedAt = Date.now();
    const stamp = dirStamp(path);
    const was = saved.get(rel);
    if (was !== undefined && was.depth === depth && was.stamp === stamp) {
      const children = was.dirs.filter((name) => entersDir(depth, name)).sort();
      out.push({ path, rel, depth, names: was.names, dirs: children, links: [], stamp, ino: inoOf(path), stampedAt, kept: true, diffed: false, savedLogs: was.logs, gone: [] });
      for (const name of children) walk(join(path, name), rel ? `${rel}/${name}` : name, depth + 1);
      return;
    }
    const listing = readSorted(path, reach);
    if (listing === null) return;
    const { names, dirs, links } = listing;
    // A directory out of the scan's reach is not kept at all.
    const skipped = [...dirs].filter((name) => !entersDir(depth, name));
    for (const name of skipped) dirs.delete(name);
    const kept = skipped.length === 0 ? names : names.filter((name) => !skipped.includes(name));
    // Saved with another stamp: only what changed since is listed here (a directory with links is listed whole).
    const diff = was !== undefined && was.depth === depth && links.length === 0 ? changedLogs(was, kept, dirs) : null;
    visit?.({ path, rel, index: out.length }, kept, dirs, diff?.only);
    const children = [...dirs].sort();
    const from = { kept: diff !== null, diffed: diff !== null, savedLogs: diff?.savedLogs ?? 0, gone: diff?.gone ?? [] };
    out.push({ path, rel, depth, names: kept.join(NAME_SEP), dirs: children, links, stamp, ino: inoOf(path), stampedAt, ...from });
    for (const name of children) walk(join(path, name), rel ? `${rel}/${name}` : name, depth + 1);
  };
  walk(root, '', 1);
  return out;
}
