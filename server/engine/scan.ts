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
}

const isFlowName = (name: string) => name.endsWith('.flow.json');
const isSessionName = (name: string) =>
  name.endsWith('.jsonl') && !name.endsWith('.flow.jsonl') && !name.endsWith('.confirm.jsonl');

export function insideDir(child: string, dir: string): boolean {
  return child === dir || child.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

type EntryKind = 'dir' | 'file' | 'link' | 'other';

function list(dir: string): { name: string; kind: EntryKind }[] | null {
  let dirents;
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  return dirents
    .map((d) => ({
      name: d.name,
      kind: (d.isSymbolicLink() ? 'link' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other') as EntryKind,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Walk `dataDir` (canonical). Unreadable directories are skipped, never fatal. */
export function scanDataDir(dataDir: string): Scan {
  const out: Scan = { sessions: [], flows: [], files: new Set() };
  // Compared by real path: a link to `console/`, or `console/` reached through a link, is skipped too.
  const consoleDir = realOrNull(join(dataDir, 'console')) ?? join(dataDir, 'console');

  function walk(dir: string, relDir: string, depth: number): void {
    const entries = list(dir);
    if (entries === null) return;
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.kind === 'dir' && entry.name === 'console' && realOrNull(path) === consoleDir) continue;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      let isDir = entry.kind === 'dir';
      let isFile = entry.kind === 'file';
      if (entry.kind === 'link') {
        try {
          const target = realpathSync(path);
          if (!insideDir(target, dataDir) || insideDir(target, consoleDir)) continue;
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
