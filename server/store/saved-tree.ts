// The tree's directories saved with the index, so a restart need not list a directory that has not changed (as
// git's untracked cache does): its saved names are taken again only while its stamp (mtime, ctime, inode) is the
// one they were saved with. A directory's times move in coarse ticks, so a change in the tick it was stamped in
// could leave its stamp as it was: only a directory stamped STILL_MS after it last changed is saved. And only one
// whose session logs are exactly the saved entries beside it, each with the companions its saved stamp names, so
// a restart can list that directory's logs from the saved index alone.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deserialize, serialize } from 'node:v8';
import * as v from 'valibot';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';

/** How long a directory must have been still when it was stamped for its names to be saved. */
export const STILL_MS = 2_000;

/** A directory as the tree holds it (tree.ts `stillDirs`): its names sorted by code unit. */
export interface TreeDir {
  rel: string;
  depth: number;
  stamp: string;
  names: string[];
  /** The directories among the names. */
  dirs: string[];
}

/** A name in a directory: no separator, not a step up or in place (a saved file is not trusted to stay inside). */
const isName = (name: string): boolean => name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\u0000');

const SavedDirSchema = v.object({
  rel: v.pipe(v.string(), v.check((rel) => rel === '' || rel.split('/').every(isName))),
  depth: v.number(),
  stamp: v.string(),
  /** The names, sorted, NUL-joined (as the walk sends them). */
  names: v.pipe(v.string(), v.check((names) => names === '' || names.split('\u0000').every(isName))),
  dirs: v.array(v.pipe(v.string(), v.check(isName))),
  /** How many of the names are session logs. */
  logs: v.number(),
});
export type SavedDir = v.InferOutput<typeof SavedDirSchema>;

const NAME_SEP = '\u0000';

/** The mtime in a directory's stamp (stamp.ts `dirStamp`: `mtime ns:ctime ns:inode`), in ms. */
export const stampMtimeMs = (stamp: string): number => Number(BigInt(stamp.slice(0, stamp.indexOf(':'))) / 1_000_000n);

const isLog = (name: string): boolean => name.endsWith(JSONL) && !name.endsWith(FLOW_LOG) && !name.endsWith(CONFIRM_LOG);

/** Whether `name` is among `sorted` (sorted by code unit). */
export const sortedHas = (sorted: readonly string[], name: string): boolean => sortedIndex(sorted, name) !== -1;

/** Where `name` is in `sorted` (sorted by code unit), or -1. */
export function sortedIndex(sorted: readonly string[], name: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < name) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo] === name ? lo : -1;
}

const HAS_FLOW = 1;
const HAS_CONFIRM = 2;

/** Whether a saved stamp part (`-` for a missing file) names a file, from `from` to `to`. */
const namesAFile = (stamp: string, from: number, to: number): boolean => to !== from + 1 || stamp.charCodeAt(from) !== 0x2d;

/** A saved stamp's companions (`log|flow log|confirm log`, `-` for a missing one) as bits; -1 for another shape. */
function stampCompanions(stamp: string): number {
  const a = stamp.indexOf('|');
  const b = a === -1 ? -1 : stamp.indexOf('|', a + 1);
  if (b === -1 || stamp.indexOf('|', b + 1) !== -1) return -1;
  return (namesAFile(stamp, a + 1, b) ? HAS_FLOW : 0) | (namesAFile(stamp, b + 1, stamp.length) ? HAS_CONFIRM : 0);
}

/** Names looked at one by one before `target` (below `from` in `sorted`) before it is searched for. */
const NEAR = 8;

/**
 * Whether `target`, which sorts before `sorted[from]`, is among `sorted`: a log's companions sort just before
 * it (`x.confirm.jsonl`, `x.flow.jsonl`, `x.jsonl`), so the names just before it are looked at first.
 */
function hasBefore(sorted: readonly string[], from: number, target: string): boolean {
  for (let j = from - 1; j >= 0 && j >= from - NEAR; j--) {
    const name = sorted[j]!;
    if (name === target) return true;
    if (name < target) return false;
  }
  return from > NEAR && sortedHas(sorted, target);
}

/**
 * A log's companions (as HAS_* bits), `sorted[i]` being its name and `stem` its stem: they sort just before it,
 * among the names that begin with the stem and a dot, so those are looked at with no name made for them;
 * searched for by name only past NEAR of them.
 */
function companionsBefore(sorted: readonly string[], i: number, stem: string): number {
  let bits = 0;
  for (let j = i - 1; j >= 0; j--) {
    const name = sorted[j]!;
    if (!name.startsWith(stem) || name.charCodeAt(stem.length) !== 0x2e) return bits;
    if (i - j > NEAR) return (hasBefore(sorted, i, stem + FLOW_LOG) ? HAS_FLOW : 0) | (hasBefore(sorted, i, stem + CONFIRM_LOG) ? HAS_CONFIRM : 0);
    if (name.length === stem.length + FLOW_LOG.length && name.endsWith(FLOW_LOG)) bits |= HAS_FLOW;
    else if (name.length === stem.length + CONFIRM_LOG.length && name.endsWith(CONFIRM_LOG)) bits |= HAS_CONFIRM;
  }
  return bits;
}

/**
 * Where `name` is in `sorted`, or -1: first just below `near`, where it is when names are asked for newest first
 * (the engine's log names begin with their start time, and a save writes the list's order), else searched for.
 */
function nearIndex(sorted: readonly string[], near: number, name: string): number {
  for (let j = near - 1; j >= 0 && j >= near - NEAR; j--) if (sorted[j] === name) return j;
  return sortedIndex(sorted, name);
}

/**
 * The still directories, held against the entries a save writes (`note`, each as written): `agreeing()` keeps
 * those whose session logs are exactly the saved entries in them, each with the companions its stamp names.
 */
export class TreeAgreement {
  /** Per directory: the entries noted in it, whether they agree so far, and where the last one was in its names. */
  private readonly byRel = new Map<string, { dir: TreeDir; saved: number; agrees: boolean; last: number }>();

  constructor(dirs: readonly TreeDir[]) {
    for (const dir of dirs) this.byRel.set(dir.rel, { dir, saved: 0, agrees: true, last: -1 });
  }

  /**
   * A saved entry: its log's path and the stamp written for it. Found in the directory's sorted names, with no
   * set of them made: one directory can hold half a million names.
   */
  note(rel: string, stamp: string): void {
    const cut = rel.lastIndexOf('/');
    const at = this.byRel.get(cut === -1 ? '' : rel.slice(0, cut));
    if (at === undefined || !at.agrees) return;
    at.saved++;
    const names = at.dir.names;
    const name = rel.slice(cut + 1);
    const i = (at.last = nearIndex(names, at.last, name));
    const stem = name.slice(0, -JSONL.length);
    if (i === -1 || companionsBefore(names, i, stem) !== stampCompanions(stamp)) at.agrees = false;
  }

  /**
   * The directories that agree, each with how many session logs it holds (their names looked at a piece per turn
   * of the event loop).
   */
  async agreeing(): Promise<{ dir: TreeDir; logs: number }[]> {
    const out: { dir: TreeDir; logs: number }[] = [];
    let looked = 0;
    for (const at of this.byRel.values()) {
      if (!at.agrees) continue;
      const names = at.dir.names;
      let logs = 0;
      for (let i = 0; i < names.length; i++) {
        if (isLog(names[i]!)) logs++;
        if (++looked % NAMES_PER_TURN === 0) await nextTurn();
      }
      if (logs === at.saved) out.push({ dir: at.dir, logs });
    }
    return out;
  }
}

/**
 * A saved directory whose stamp moved, read again (`names`, sorted; `dirs`, the directories among them): the
 * session logs the walk must list (come since, or whose companions came or went), each with whether it is new
 * (not among the saved names), how many of the rest, listed from the saved index, there are, and the saved logs
 * gone since.
 */
export function changedLogs(saved: SavedDir, names: readonly string[], dirs: ReadonlySet<string>): { only: Map<string, boolean>; savedLogs: number; gone: string[] } {
  const before = saved.names === '' ? [] : saved.names.split(NAME_SEP);
  const only = new Map<string, boolean>();
  const gone: string[] = [];
  // Both sorted by code unit: one pass finds what came and what went.
  const touched = (name: string, came: boolean): void => {
    if (dirs.has(name) || !name.endsWith(JSONL)) return;
    if (isLog(name)) {
      if (came) only.set(name, true);
      else gone.push(name);
      return;
    }
    const log = name.slice(0, -(name.endsWith(FLOW_LOG) ? FLOW_LOG : CONFIRM_LOG).length) + JSONL;
    if (!only.has(log) && sortedHas(names, log)) only.set(log, !sortedHas(before, log));
  };
  for (let i = 0, j = 0; i < before.length || j < names.length; ) {
    const a = before[i];
    const b = names[j];
    if (a === b) {
      i++;
      j++;
    } else if (b === undefined || (a !== undefined && a < b)) touched(before[i++]!, false);
    else touched(names[j++]!, true);
  }
  let logs = 0;
  for (const name of names) if (isLog(name) && !dirs.has(name)) logs++;
  return { only, savedLogs: logs - only.size, gone };
}

/**
 * One directory as saved: its length (4 bytes) and the directory serialized. A directory a record, so a save
 * writes them a turn of the event loop each (a million logs' directories hold 60 MB of names).
 */
export function encodeDir({ dir, logs }: { dir: TreeDir; logs: number }): Buffer {
  return Buffer.concat(dirRecord(dir, logs, dir.names.join(NAME_SEP)));
}

/** encodeDir's bytes as its length and its body, its names joined already (joinedInTurns). */
export function dirRecord(dir: TreeDir, logs: number, names: string): [Buffer, Buffer] {
  const saved: SavedDir = { rel: dir.rel, depth: dir.depth, stamp: dir.stamp, names, dirs: dir.dirs, logs };
  const body = serialize(saved);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return [head, body];
}

/** Names a turn of the event loop joins, or looks at for logs: half a million at once held it for 35 ms. */
const NAMES_PER_TURN = 50_000;

/** A directory's names, NUL-joined, a piece per turn of the event loop. */
export async function joinedInTurns(names: readonly string[]): Promise<string> {
  if (names.length <= NAMES_PER_TURN) return names.join(NAME_SEP);
  let out = '';
  for (let i = 0; i < names.length; i += NAMES_PER_TURN) {
    out += (i === 0 ? '' : NAME_SEP) + names.slice(i, i + NAMES_PER_TURN).join(NAME_SEP);
    await nextTurn();
  }
  return out;
}

/** The saved directories by path, or null when the bytes are not such records. */
export function decodeTree(bytes: Buffer): Map<string, SavedDir> | null {
  const out = new Map<string, SavedDir>();
  for (let at = 0; at < bytes.length; ) {
    if (at + 4 > bytes.length) return null;
    const end = at + 4 + bytes.readUInt32BE(at);
    if (end > bytes.length) return null;
    let value: unknown;
    try {
      value = deserialize(bytes.subarray(at + 4, end));
    } catch {
      return null;
    }
    const dir = v.safeParse(SavedDirSchema, value);
    if (!dir.success) return null;
    out.set(dir.output.rel, dir.output);
    at = end;
  }
  return out;
}
