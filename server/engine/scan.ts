// The data directory as the CLI's doctor scans it (console-api.md §3.2): depth-first, entries sorted by path,
// files at most three levels down, `oracle-cache` directories and the console's own `console/` skipped, and a
// symbolic link followed only when its target stays inside the data directory. Only names decide what a
// file is; nothing is opened.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { SCAN_DEPTH } from '../../shared/limits.ts';

export interface ScannedFile {
  /** Absolute path (through the data directory, not canonicalized). */
  path: string;
  /** Relative to the data directory, joined with `/`. */
  rel: string;
  name: string;
}

export interface Scan {
  sessions: ScannedFile[];
  flows: ScannedFile[];
  /** Every kept regular file seen, for companions: rel → true. */
  files: Set<string>;
  /** Each directory walked with its stamp: while none changes (and no link was met), the scan is the same. */
  dirs: [string, string][];
  /** A symbolic link was met: its target may move without any directory changing. */
  sawLink: boolean;
}

export const isFlowName = (name: string) => name.endsWith('.flow.json');
export const isSessionName = (name: string) =>
  name.endsWith('.jsonl') && !name.endsWith('.flow.jsonl') && !name.endsWith('.confirm.jsonl');

export function insideDir(child: string, dir: string): boolean {
  return child === dir || child.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

type EntryKind = 'dir' | 'file' | 'link' | 'other';
interface Listing {
  stamp: string;
  entries: { name: string; kind: EntryKind }[];
}

/**
 * Directory listings by the directory's change time: a listing changes only when the directory does, so a
 * warm scan of 10k logs costs one stat per directory instead of a readdir (which is slower on big folders).
 */
const listings = new Map<string, Listing>();

const RACY_MS = 2_000;

/**
 * A directory's stamp: changes whenever an entry is added, removed or renamed in it. File systems keep
 * coarse clocks (a tick of several ms), so a directory changed within the last two seconds could change
 * again under the same stamp: such a stamp is "racy" and never trusted for reuse (git's racy-clean rule).
 */
export function dirStamp(dir: string): string | null {
  const st = statSync(dir, { bigint: true, throwIfNoEntry: false });
  if (!st) return null;
  const racy = Date.now() - Number(st.mtimeNs / 1_000_000n) < RACY_MS;
  return racy ? `racy:${Math.random()}` : `${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
}

function list(dir: string, stamps: [string, string][]): Listing['entries'] | null {
  const stamp = dirStamp(dir);
  if (stamp === null) {
    listings.delete(dir);
    return null;
  }
  stamps.push([dir, stamp]);
  const hit = listings.get(dir);
  if (hit && hit.stamp === stamp) return hit.entries;
  if (stamp.startsWith('racy:')) listings.delete(dir);
  let dirents;
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch {
    listings.delete(dir);
    return null;
  }
  const entries = dirents
    .map((d) => ({
      name: d.name,
      kind: (d.isSymbolicLink() ? 'link' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other') as EntryKind,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (listings.size > 10_000) listings.clear();
  if (!stamp.startsWith('racy:')) listings.set(dir, { stamp, entries });
  return entries;
}

/** Walk `dataDir` (canonical). Unreadable directories are skipped, never fatal. */
export function scanDataDir(dataDir: string): Scan {
  const out: Scan = { sessions: [], flows: [], files: new Set(), dirs: [], sawLink: false };
  const consoleDir = join(dataDir, 'console');

  function walk(dir: string, relDir: string, depth: number): void {
    const entries = list(dir, out.dirs);
    if (entries === null) return;
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (path === consoleDir) continue;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      let isDir = entry.kind === 'dir';
      let isFile = entry.kind === 'file';
      if (entry.kind === 'link') {
        out.sawLink = true;
        try {
          const target = realpathSync(path);
          if (!insideDir(target, dataDir)) continue;
          const st = statSync(path);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue; // dangling or unreadable
        }
      }
      if (isDir) {
        if (depth < SCAN_DEPTH && entry.name !== 'oracle-cache') walk(path, rel, depth + 1);
        continue;
      }
      if (!isFile) continue;
      out.files.add(rel);
      const file = { path, rel, name: entry.name };
      if (isFlowName(entry.name)) out.flows.push(file);
      else if (isSessionName(entry.name)) out.sessions.push(file);
    }
  }

  walk(dataDir, '', 1);
  return out;
}
