// The first walk of the data directory, as the store takes it in at start: the tree's directories, and the
// session logs in the order they are indexed. Runs in the pool (workers/tasks/tree.ts): at 100k sessions it
// lists some 160k files, which the event loop must not spend its time on, and the ordering and grouping
// below are done there too, so the store can list the first slice as soon as the walk is in.
import { statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { keyBase } from '../engine/keys.ts';
import { NAME_SEP, type WalkedDir, walkTree } from './listing.ts';
import { type SavedDir, sortedHas, sortedIndex } from './saved-tree.ts';
import { CONFIRM_LOG, FLOW_LOG, idStart, isSessionId, JSONL } from './log-names.ts';

export interface FirstWalk {
  dirs: WalkedDir[];
  /** The session logs of the directories kept from a saved index (listed from it, not here). */
  keptLogs: number;
  /**
   * The session logs, as places in `dirs` (the directory's index, the name's index in its names): newest start
   * first, each with the other logs of its key group right after it (store.ts lists a group at once, so a key
   * never changes). Places, not paths: 100k paths would be built here, sent, and split again there.
   */
  logDir: Uint32Array;
  logName: Uint32Array;
  /** Per log: HAS_FLOW_LOG, HAS_CONFIRM_LOG (console-api.md §3.2 companions), GROUP_START, NOT_SAVED. */
  flags: Uint8Array;
}

export const HAS_FLOW_LOG = 1;
export const HAS_CONFIRM_LOG = 2;
/** The log begins a key group (the logs up to the next such one share its key base). */
export const GROUP_START = 4;
/** The log is in a directory a saved index holds, and not among its saved names: it has no saved entry. */
export const NOT_SAVED = 8;

/** The logs of one walk, in the order met, as parallel arrays (160k small objects would cost more). */
class Found {
  dir: number[] = [];
  name: number[] = [];
  start: number[] = [];
  companions: number[] = [];
  /** Whether the log is named by a session id (else it is placed by its modification time). */
  byId: boolean[] = [];

  get size(): number {
    return this.dir.length;
  }

  /**
   * The session logs of one directory, by its sorted names. A log's companions sort before it (`.confirm.`
   * and `.flow.` before `.jsonl`), so they are noted as they pass and claimed when their log comes: the
   * pending ones are few, where a set of the directory's names would hold 50k.
   */
  addDir(dir: { path: string; index: number }, names: readonly string[], subdirs: ReadonlySet<string>, only?: ReadonlyMap<string, boolean>): void {
    if (only !== undefined) return this.addOnly(dir, names, only);
    const pending = new Map<string, number>();
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (!name.endsWith(JSONL) || subdirs.has(name)) continue;
      const companion = name.endsWith(FLOW_LOG) ? HAS_FLOW_LOG : name.endsWith(CONFIRM_LOG) ? HAS_CONFIRM_LOG : 0;
      if (companion !== 0) {
        const stem = name.slice(0, -(companion === HAS_FLOW_LOG ? FLOW_LOG : CONFIRM_LOG).length);
        pending.set(stem, (pending.get(stem) ?? 0) | companion);
        continue;
      }
      let companions = 0;
      if (pending.size > 0) {
        const stem = name.slice(0, -JSONL.length);
        companions = pending.get(stem) ?? 0;
        pending.delete(stem);
      }
      this.push(dir, name, i, companions);
    }
  }

  /** Of a directory read again beside its saved names, only the logs `only` names (changedLogs), found by name. */
  private addOnly(dir: { path: string; index: number }, names: readonly string[], only: ReadonlyMap<string, boolean>): void {
    for (const [name, fresh] of [...only].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const i = sortedIndex(names, name);
      if (i === -1) continue;
      const stem = name.slice(0, -JSONL.length);
      const companions = (sortedHas(names, stem + FLOW_LOG) ? HAS_FLOW_LOG : 0) | (sortedHas(names, stem + CONFIRM_LOG) ? HAS_CONFIRM_LOG : 0);
      this.push(dir, name, i, companions | (fresh ? NOT_SAVED : 0));
    }
  }

  private push(dir: { path: string; index: number }, name: string, i: number, companions: number): void {
    const byId = isSessionId(name);
    this.dir.push(dir.index);
    this.name.push(i);
    this.byId.push(byId);
    this.start.push(byId ? idStart(name) : (statSync(`${dir.path}/${name}`, { throwIfNoEntry: false })?.mtimeMs ?? 0));
    this.companions.push(companions);
  }
}

/**
 * Which logs share a key group, by log (-1: a group of its own). Keys clash rarely, so only the logs that can
 * clash are given their key base: two logs named by session ids can share a base only if they share the id,
 * and so the start (the id's characters are all kept by keyBase, which writes `_` for others); a log named
 * otherwise can share one only with another such log. So: logs whose start another log has, and logs not
 * named by ids.
 */
function groupsOf(found: Found, order: readonly number[], names: readonly (readonly string[])[]): { group: Int32Array; count: number } {
  const group = new Int32Array(found.size).fill(-1);
  const ids = new Map<string, number>();
  order.forEach((i, k) => {
    const tied = found.start[order[k - 1] ?? -1] === found.start[i] || found.start[order[k + 1] ?? -1] === found.start[i];
    if (!tied && found.byId[i]) return;
    const name = names[found.dir[i]!]![found.name[i]!]!;
    const base = keyBase(name.slice(0, -JSONL.length));
    let id = ids.get(base);
    if (id === undefined) ids.set(base, (id = ids.size));
    group[i] = id;
  });
  return { group, count: ids.size };
}

/** `saved`: a saved index's still directories (saved-tree.ts): those unchanged are not read, nor their logs listed here. */
export function firstWalk(root: string, saved?: ReadonlyMap<string, SavedDir>): FirstWalk {
  const found = new Found();
  const listed: (readonly string[])[] = [];
  const dirs = walkTree(
    root,
    (dir, names, subdirs, only) => {
      listed[dir.index] = names;
      found.addDir(dir, names, subdirs, only);
    },
    saved,
  );
  const keptLogs = dirs.reduce((n, d) => n + d.savedLogs, 0);
  const n = found.size;
  // Newest first; a tie keeps the walk's order.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => found.start[b]! - found.start[a]! || a - b);
  const { group: groupOf, count: groups } = groupsOf(found, order, listed);
  // The logs of each shared group, newest first, chained from the group's newest log.
  const head = new Int32Array(groups).fill(-1);
  const tail = new Int32Array(groups);
  const next = new Int32Array(n).fill(-1);
  for (const i of order) {
    const g = groupOf[i]!;
    if (g === -1) continue;
    if (head[g] === -1) head[g] = i;
    else next[tail[g]!] = i;
    tail[g] = i;
  }
  const walk: FirstWalk = { dirs, keptLogs, logDir: new Uint32Array(n), logName: new Uint32Array(n), flags: new Uint8Array(n) };
  let at = 0;
  for (const first of order) {
    const g = groupOf[first]!;
    if (g !== -1 && head[g] !== first) continue;
    for (let i = first; i !== -1; i = g === -1 ? -1 : next[i]!) {
      walk.logDir[at] = found.dir[i]!;
      walk.logName[at] = found.name[i]!;
      walk.flags[at] = found.companions[i]! | (i === first ? GROUP_START : 0);
      at++;
    }
  }
  return walk;
}

/** Each walked directory's names, split (the walk joins them to cross from the worker as one string). */
export const namesOf = (walk: { dirs: readonly Pick<WalkedDir, 'names'>[] }): string[][] => walk.dirs.map(namesIn);

/** Characters of a directory's joined names split in one turn: ~28k names of a session log's length, a few ms. */
const NAMES_CHARS_PER_TURN = 1 << 20;

/**
 * namesOf, a piece per turn of the event loop: a million logs' directories hold 1.6M names, and one directory
 * a third of them (splitting those at once held the loop for 45 ms).
 */
export async function namesInTurns(walk: { dirs: readonly Pick<WalkedDir, 'names'>[] }, charsPerTurn = NAMES_CHARS_PER_TURN): Promise<string[][]> {
  const out: string[][] = [];
  for (const d of walk.dirs) {
    const all = d.names;
    if (all.length <= charsPerTurn) {
      out.push(namesIn(d));
      await nextTurn();
      continue;
    }
    const names: string[] = [];
    out.push(names);
    for (let from = 0; from <= all.length; ) {
      const cut = from + charsPerTurn >= all.length ? -1 : all.indexOf(NAME_SEP, from + charsPerTurn);
      const end = cut === -1 ? all.length : cut;
      for (const name of all.slice(from, end).split(NAME_SEP)) names.push(name);
      from = end + NAME_SEP.length;
      await nextTurn();
    }
  }
  return out;
}

const namesIn = (d: Pick<WalkedDir, 'names'>): string[] => (d.names === '' ? [] : d.names.split(NAME_SEP));

/** The `i`th log of the walk: its name and its path relative to the data directory. */
export function logAt(walk: FirstWalk, names: readonly (readonly string[])[], i: number): { name: string; rel: string } {
  const d = walk.logDir[i]!;
  const name = names[d]![walk.logName[i]!]!;
  const dir = walk.dirs[d]!.rel;
  return { name, rel: dir ? `${dir}/${name}` : name };
}
