// The newest session logs of the data directory, found before the first walk is in, so that the first page
// of the list can be read while the walk (first-walk.ts, some 160k files at 100k sessions) goes on. The walk
// lists, sorts and stamps every entry; the first page needs only the newest logs, and a log's name says when
// it started (log-names.ts). So this reads each directory's names (at the last level, names only: no entry
// becomes an object), keeps each directory's newest few, and checks only the ones it answers: at 100k
// sessions some 150–250 ms in a worker that has just started, against 500–800 ms for the walk. It runs in
// the pool (workers/tasks/tree.ts): first alone, for the first page's logs, then for more beside the walk.
//
// It answers the logs the walk will put first, closed under key groups: logs that could share a key (the
// same session id, so the same start, or named otherwise) are all in, so a key shown from the head never
// changes when the rest is listed. It gives up (null) where that would cost more than waiting for the walk:
// many logs not named by session ids, each of which needs a stat to be placed.
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { keyBase } from '../engine/keys.ts';
import { SCAN_DEPTH } from '../../shared/limits.ts';
import { direntsOf, namesOf } from './dir-entries.ts';
import { entersDir, isConsoleDir, linkKind, type Reach, reachOf } from './listing.ts';
import { CONFIRM_LOG, FLOW_LOG, idStart, isLogName, isSessionId, JSONL } from './log-names.ts';
import type { NewLog } from './session-index.ts';

/** Logs named otherwise than by session id that the head will stat to place; past this, the walk decides. */
const MAX_UNNAMED = 2_000;

export interface Head {
  /** The newest logs, newest first, each key group whole. */
  logs: NewLog[];
  /** How many logs the directories seem to hold (names only: the walk's count is the true one). */
  found: number;
}

interface Candidate {
  dir: string;
  rel: string;
  name: string;
  start: number;
  byId: boolean;
}

interface DirNames {
  path: string;
  rel: string;
  /** The newest `keep` logs named by session id, newest first. */
  newest: string[];
  /** Logs named otherwise. */
  unnamed: string[];
  companions: Set<string>;
  logs: number;
}

/**
 * Which directories a scan reads: every `of`th, from the `index`th, in the scan's order (directories by name),
 * so that each worker reads a part of a big tree and mergeHeads makes one head of the parts.
 */
export interface ScanPart {
  index: number;
  of: number;
}

const WHOLE: ScanPart = { index: 0, of: 1 };

export function newestLogs(root: string, count: number, part: ScanPart = WHOLE): Head | null {
  const dirs: DirNames[] = [];
  const reach = reachOf(root);
  scanDir(reach, root, '', 1, { keep: count * 2, part, next: 0 }, dirs);
  const unnamed = dirs.reduce((n, d) => n + d.unnamed.length, 0);
  if (unnamed > MAX_UNNAMED) return null;
  const candidates: Candidate[] = [];
  for (const d of dirs) {
    for (const name of d.newest) candidates.push({ dir: d.path, rel: relOf(d, name), name, start: idStart(name), byId: true });
    for (const name of d.unnamed) {
      const start = statSync(join(d.path, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
      candidates.push({ dir: d.path, rel: relOf(d, name), name, start, byId: false });
    }
  }
  candidates.sort((a, b) => b.start - a.start || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const chosen = choose(candidates, count, reach);
  const companionsOf = new Map(dirs.map((d) => [d.path, d.companions]));
  return {
    logs: chosen.map((c) => {
      const stem = c.name.slice(0, -JSONL.length);
      const companions = companionsOf.get(c.dir);
      return { rel: c.rel, name: c.name, flowLog: companions?.has(stem + FLOW_LOG) ?? false, confirmLog: companions?.has(stem + CONFIRM_LOG) ?? false };
    }),
    found: dirs.reduce((n, d) => n + d.logs, 0),
  };
}

const relOf = (d: { rel: string }, name: string) => (d.rel ? `${d.rel}/${name}` : name);

/**
 * The first `count` candidates that are log files in reach, then every candidate that starts when the last
 * of them does (a log of the same session id elsewhere shares its key base) and every log named otherwise
 * whose key base one of them has.
 */
function choose(sorted: readonly Candidate[], count: number, reach: Reach): Candidate[] {
  const out: Candidate[] = [];
  for (const c of sorted) {
    if (out.length >= count && c.start !== out.at(-1)?.start) break;
    if (isLogFile(join(c.dir, c.name), reach)) out.push(c);
  }
  const bases = new Set(out.filter((c) => !c.byId).map((c) => keyBase(c.name.slice(0, -JSONL.length))));
  if (bases.size === 0) return out;
  const chosen = new Set(out);
  for (const c of sorted) {
    if (!c.byId && !chosen.has(c) && bases.has(keyBase(c.name.slice(0, -JSONL.length))) && isLogFile(join(c.dir, c.name), reach)) out.push(c);
  }
  return out;
}

/** A regular file, or a link that stays inside the data directory and leads to one (listing.ts's rule). */
function isLogFile(path: string, reach: Reach): boolean {
  try {
    const st = lstatSync(path);
    return st.isFile() || (st.isSymbolicLink() && linkKind(path, reach) === 'file');
  } catch {
    return false; // gone, or not to be read
  }
}

/**
 * The newest `count` logs of the parts' heads together (each scanned from `newestLogs(root, count, part)`):
 * what the whole scan answers, as the parts' heads hold every log it would choose. Undefined when a part
 * found none, or holds a log not named by session id (placed by its mtime, which the head does not carry):
 * the whole scan decides then.
 */
export function mergeHeads(parts: readonly (Head | null)[], count: number): Head | undefined {
  const logs: NewLog[] = [];
  const rels = new Set<string>();
  let found = 0;
  for (const part of parts) {
    if (part === null) return undefined;
    found += part.found;
    for (const log of part.logs) {
      if (!isSessionId(log.name)) return undefined;
      // A directory listed anew between the parts' scans may be read by both.
      if (rels.has(log.rel)) continue;
      rels.add(log.rel);
      logs.push(log);
    }
  }
  const start = (log: NewLog) => idStart(log.name);
  logs.sort((a, b) => start(b) - start(a) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const out: NewLog[] = [];
  for (const log of logs) {
    if (out.length >= count && start(log) !== start(out[out.length - 1]!)) break;
    out.push(log);
  }
  return { logs: out, found };
}

/** How a scan goes: each directory's newest logs it keeps, its part of the directories, the next one's number. */
interface Scan {
  keep: number;
  part: ScanPart;
  next: number;
}

/**
 * One directory: above the scan's last level its entries' kinds are read (to find the directories to go
 * into); at the last level, only names (nothing there is gone into, and a name that is not a file is
 * found out when it is checked). A directory of another part is gone through, not kept; at the last level,
 * not read.
 */
function scanDir(reach: Reach, path: string, rel: string, depth: number, scan: Scan, out: DirNames[]): void {
  const mine = scan.next++ % scan.part.of === scan.part.index;
  if (!mine && depth >= SCAN_DEPTH) return;
  let names: string[];
  const subdirs: string[] = [];
  try {
    if (depth < SCAN_DEPTH) {
      names = [];
      for (const d of direntsOf(path)) {
        if (d.isDirectory() && d.name === 'console' && isConsoleDir(join(path, d.name), reach)) continue;
        if (d.isDirectory() || (d.isSymbolicLink() && linkKind(join(path, d.name), reach) === 'dir')) {
          if (entersDir(depth, d.name)) subdirs.push(d.name);
        } else names.push(d.name);
      }
    } else names = namesOf(path);
  } catch {
    return;
  }
  if (mine) out.push(pickNewest(path, rel, names, scan.keep));
  // By name: every part numbers the directories alike.
  for (const name of subdirs.sort()) scanDir(reach, join(path, name), relOf({ rel }, name), depth + 1, scan, out);
}

/** One pass over a directory's names: its newest `keep` logs by session id, the others, its companions. */
function pickNewest(path: string, rel: string, names: readonly string[], keep: number): DirNames {
  const dir: DirNames = { path, rel, newest: [], unnamed: [], companions: new Set(), logs: 0 };
  // Names come in no order (a directory's hash order): candidates gather, and each time they reach twice
  // `keep` the newest `keep` are kept; from then on a name older than the oldest kept is passed over. That
  // sorts a few times `keep` names in all, where a sorted insertion moved half the kept ones per name.
  let ids: string[] = [];
  let oldestKept: string | null = null;
  // The oldest kept log's stem: a companion named by an older session id belongs to a log passed over (a
  // million sessions' directories hold some 600k companions, each a set entry otherwise).
  let oldestStem: string | null = null;
  for (const name of names) {
    if (!name.endsWith(JSONL)) continue;
    if (!isLogName(name)) {
      if (oldestStem === null || name > oldestStem || !isSessionId(name)) dir.companions.add(name);
      continue;
    }
    dir.logs++;
    if (!isSessionId(name)) {
      dir.unnamed.push(name);
      continue;
    }
    if (oldestKept !== null && name <= oldestKept) continue;
    ids.push(name);
    if (ids.length >= 2 * keep) {
      ids = newestOf(ids, keep);
      oldestKept = ids[ids.length - 1] ?? null;
      oldestStem = oldestKept === null ? null : oldestKept.slice(0, -JSONL.length);
    }
  }
  dir.newest = newestOf(ids, keep);
  return dir;
}

/** The `keep` greatest names, greatest first. */
const newestOf = (names: string[], keep: number): string[] => names.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, keep);
