// A restart lists the saved entries the pool's check finds unchanged as each part of the check comes in, with
// their saved summaries, before the walk is in: their paths are in the saved index, and their companions are
// those the check found named by their stamps. The walk then adds only the logs not listed yet, tells whether
// a listed log's companions are still as saved (`seenByWalk`), and what it did not find is gone (`unseen`).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Feeder } from './feeder.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { CHECKED_CONFIRM_LOG, CHECKED_FLOW_LOG, type SavedEntries } from './persisted-index.ts';
import { sortedHas } from './saved-tree.ts';
import type { NewLog, SessionEntry, SessionIndex } from './session-index.ts';

/**
 * A directory whose logs the walk left to the saved index: its names now, sorted, and which of its saved logs are
 * gone since (none unless it was read again and diffed).
 */
export interface KeptDir {
  names: readonly string[];
  gone: ReadonlySet<string>;
}

/** Listed logs looked at per turn of the event loop for those the walk did not find. */
const UNSEEN_PER_TURN = 20_000;

/** Per row: listed here, and found by the walk. */
const LISTED = 1;
const SEEN = 2;

export class SavedListing {
  /** Marks by row (rows taken while this lists are new, so a row's mark is its entry's). */
  private marks = new Uint8Array(1024);
  private readonly listed: SessionEntry[] = [];
  private kept: ReadonlyMap<string, KeptDir> | null = null;
  /** Every saved log is in a directory the walk found as saved (keep): none can be gone. */
  private noneGone = false;
  private seen = 0;
  /** Pieces of chunks listed before the walk was in, whose changed logs are read once it is (keep). */
  private readonly changedBeforeWalk: [number, Uint8Array, number, number][] = [];
  /** A log was listed by key (listKey). */
  private byKeyListed = false;
  /** Logs listed elsewhere that no saved entry can be (listedApart). */
  private apart = 0;

  constructor(
    private readonly sessions: SessionIndex,
    private readonly feeder: Feeder,
    private readonly saved: SavedEntries,
    private readonly root: string,
  ) {}

  /**
   * `count` logs were listed elsewhere that no saved entry can be: new names in a directory the saved index holds
   * (whose saved logs are exactly its saved entries). The chunks listed after them still need no lookup.
   */
  listedApart(count: number): void {
    this.apart += count;
  }

  /** How many logs were listed here. */
  get size(): number {
    return this.listed.length;
  }

  /**
   * List chunk `c`'s logs (from `from` to `to`) the check found unchanged (`found`) and apply their summaries; a log the walk listed
   * meanwhile takes its summary now too, if the walk found the companions the check did.
   */
  listChunk(c: number, found: Uint8Array, from = 0, to = found.length): void {
    const listed: SessionEntry[] = [];
    const places: number[] = [];
    const walked: SessionEntry[] = [];
    const walkedPlaces: number[] = [];
    const byRel = this.sessions.byRel;
    // Every log listed so far was listed here by part, so a saved entry not taken yet is not listed: no lookup needed
    // (one listed by key may not have taken its saved entry).
    const onlyHere = !this.byKeyListed && this.sessions.addedCount === this.listed.length + this.apart;
    this.saved.forUnchanged(c, found, (rel, place, checked) => {
      const flowLog = (checked & CHECKED_FLOW_LOG) !== 0;
      const confirmLog = (checked & CHECKED_CONFIRM_LOG) !== 0;
      const e = onlyHere ? undefined : byRel.get(rel);
      if (e === undefined) {
        const added = this.sessions.addUnlisted(this.root, rel, flowLog, confirmLog);
        this.mark(added.row, LISTED);
        this.listed.push(added);
        listed.push(added);
        places.push(place);
      } else if (e.stamp === null && e.hasFlowLog === flowLog && e.hasConfirmLog === confirmLog) {
        walked.push(e);
        walkedPlaces.push(place);
      }
    }, from, to);
    if (walked.length > 0) this.feeder.admitChecked(walked, walkedPlaces);
    if (listed.length > 0) this.feeder.admitChecked(listed, places);
    // What the check found changed in a directory the walk left to the saved index is read as soon as the walk is in.
    if (this.kept !== null) this.readChanged(c, found, from, to);
    else this.changedBeforeWalk.push([c, found, from, to]);
  }

  /** The saved logs of a piece of chunk `c` the check found changed, still there: listed and queued to be read. */
  private readChanged(c: number, found: Uint8Array, from: number, to: number): void {
    const changed: NewLog[] = [];
    this.saved.forChanged(c, found, (rel) => {
      const log = this.stillThere(rel);
      if (log !== null) changed.push(log);
    }, from, to);
    if (changed.length > 0) for (const e of this.listAll(changed)) this.feeder.enqueue(e);
  }

  /**
   * A session asked for by key before its log is listed: its log found by the key's name in a directory the walk
   * left to the saved index, listed now and checked by its stamps here (a few stats on the event loop). True if
   * it was listed under that key.
   */
  listKey(key: string): boolean {
    if (this.kept === null) return false;
    const name = `${key}${JSONL}`;
    for (const [dir, { names }] of this.kept) {
      if (!sortedHas(names, name)) continue;
      const log = this.stillThere(dir === '' ? name : `${dir}/${name}`);
      if (log === null) return false;
      this.saved.seek(log.rel);
      this.byKeyListed = true;
      const added = this.listAll([log]);
      this.feeder.admitStamped(added);
      return added.length === 1 && this.sessions.byKey.get(key) === added[0];
    }
    return false;
  }

  /**
   * The directories whose logs the walk left to the saved index, once it is in (changedIn, unseen): what the check
   * found changed in the pieces listed before is queued to be read now, not once the listing ends.
   * `logsAsSaved`: the saved logs of the directories the walk found with the stamp their names were saved with (not
   * read again). A log deleted or renamed moves its directory's stamp; a directory is saved only with exactly its
   * saved entries (saved-tree.ts): if these are all of them, no saved log is gone.
   */
  keep(kept: ReadonlyMap<string, KeptDir>, logsAsSaved: number): void {
    this.kept = kept;
    this.noneGone = logsAsSaved === this.saved.total;
    for (const [c, found, from, to] of this.changedBeforeWalk.splice(0)) this.readChanged(c, found, from, to);
  }

  private listAll(logs: readonly NewLog[]): SessionEntry[] {
    const added = this.sessions.add(this.root, logs);
    for (const e of added) this.mark(e.row, LISTED);
    for (const e of added) this.listed.push(e);
    return added;
  }

  /** A saved log of a directory the walk left to the saved index, as it is now: null when it is not among its names (or is listed). */
  private stillThere(rel: string): NewLog | null {
    const cut = rel.lastIndexOf('/');
    const names = this.kept?.get(cut === -1 ? '' : rel.slice(0, cut))?.names;
    const name = rel.slice(cut + 1);
    if (names === undefined || this.sessions.byRel.has(rel) || !sortedHas(names, name)) return null;
    const stem = name.slice(0, -JSONL.length);
    return { rel, name, flowLog: sortedHas(names, stem + FLOW_LOG), confirmLog: sortedHas(names, stem + CONFIRM_LOG) };
  }

  /**
   * A log the walk found: true if it was listed here (then a companion that came or went since the save has
   * it read again), false if the walk must list it.
   */
  seenByWalk(log: NewLog): boolean {
    const e = this.sessions.byRel.get(log.rel);
    if (e === undefined || !e.inIndex || (this.marks[e.row]! & LISTED) === 0) return false;
    if ((this.marks[e.row]! & SEEN) === 0) {
      this.marks[e.row]! |= SEEN;
      this.seen++;
    }
    if (e.hasFlowLog !== log.flowLog || e.hasConfirmLog !== log.confirmLog) {
      this.sessions.setCompanion(log.rel, 'hasFlowLog', log.flowLog);
      this.sessions.setCompanion(log.rel, 'hasConfirmLog', log.confirmLog);
      this.feeder.enqueue(e);
    }
    return true;
  }

  /**
   * The saved logs still there of the directories whose logs the walk left to the saved index (`keep`) that were
   * not listed here, as the check found them changed: to be listed and read again, with the companions their
   * names show.
   */
  changedIn(): NewLog[] {
    const out: NewLog[] = [];
    this.saved.forUntaken((rel) => {
      const log = this.stillThere(rel);
      if (log !== null) out.push(log);
    });
    return out;
  }

  /**
   * The logs listed here that the walk did not find (gone since the check looked): those of directories it read
   * whole, and in a directory whose logs it left to the saved index, those its diff found gone (one not read
   * again still has its saved names).
   */
  async unseen(): Promise<SessionEntry[]> {
    const out: SessionEntry[] = [];
    if (this.noneGone || this.seen === this.listed.length) return out;
    const dirOf = keptDirOf(this.kept ?? new Map());
    // A piece per turn of the event loop: a million listed logs are looked at one by one.
    for (let from = 0; from < this.listed.length; from += UNSEEN_PER_TURN) {
      const end = Math.min(from + UNSEEN_PER_TURN, this.listed.length);
      for (let i = from; i < end; i++) {
        const e = this.listed[i]!;
        if (e.inIndex && (this.marks[e.row]! & SEEN) === 0 && this.isGone(e.rel, dirOf)) out.push(e);
      }
      await nextTurn();
    }
    return out;
  }

  /** A listed log the walk did not list: gone unless its directory was left to the saved index and did not lose it. */
  private isGone(rel: string, dirOf: (rel: string) => KeptDir | undefined): boolean {
    const dir = dirOf(rel);
    return dir === undefined || (dir.gone.size > 0 && dir.gone.has(rel.slice(rel.lastIndexOf('/') + 1)));
  }

  private mark(row: number, mark: number): void {
    if (row >= this.marks.length) {
      const grown = new Uint8Array(Math.max(row + 1, this.marks.length * 2));
      grown.set(this.marks);
      this.marks = grown;
    }
    this.marks[row]! |= mark;
  }
}

/**
 * `kept`'s directory of a log by its path (undefined when it holds none). Logs of one directory come in runs: the
 * last one's directory is kept, so a run takes no slice and no lookup.
 */
export function keptDirOf(kept: ReadonlyMap<string, KeptDir>): (rel: string) => KeptDir | undefined {
  let lastCut = -2;
  let lastDir = '';
  let last: KeptDir | undefined;
  return (rel) => {
    const cut = rel.lastIndexOf('/');
    if (cut !== lastCut || !rel.startsWith(lastDir)) {
      lastCut = cut;
      lastDir = cut === -1 ? '' : rel.slice(0, cut);
      last = kept.get(lastDir);
    }
    return last;
  };
}
