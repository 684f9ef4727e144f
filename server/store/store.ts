// The console's one view of the data directory, made of three parts: the tree (tree.ts: each directory's
// names, kept current by notifications), the index (session-index.ts: entries, keys, summaries, tallies) and
// its feeder (feeder.ts: the queue to the pool, re-reads, the sweep, the end of the cold index). The store
// starts them, routes what the tree sees to the index and the feeder, and answers the data layer: the
// catalog, figures memoized per version, and waits for a request to see what was written before it.
//
// - Start: the newest logs are found from their names (head-scan.ts: the first page's, then more beside the
//   walk) and summarized first, while the tree is walked once in the worker pool (the event loop keeps
//   answering); the walk's logs then get their entries newest first, a slice per turn of the loop, and are
//   summarized in that order, so the first page of the list answers while the rest is indexed behind it
//   (`progress()`). `opened` resolves with the first head (or the walk's first slice), `listed` with the last.
// - Changes: `sync()` applies the tree's notifications at once (a request calls it, so what was written
//   before the request is seen by it); the 1-second tick applies them too and publishes one `changed` event
//   per kind of thing.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Hub } from '../events/hub.ts';
import type { Pool } from '../workers/pool.ts';
import { errorText } from '../../shared/error-text.ts';
import { WATCH_POLL_MS } from '../../shared/limits.ts';
import { BIG_OUTLINE_BYTES, BigOutlines } from './big-outlines.ts';
import { KeptOutlines } from './kept-outlines.ts';
import { keptOutlinesDir, type SavedEntries, type SavedSource } from './persisted-index.ts';
import type { Catalog } from './catalog.ts';
import { DetailCache } from './detail-cache.ts';
import { Feeder, FIRST_BATCH } from './feeder.ts';
import { makeMissingFilters } from './filter-pass.ts';
import { PutOff } from './put-off.ts';
import { filterArenaIn } from './filter-file.ts';
import { type FirstWalk, firstWalk, GROUP_START, HAS_CONFIRM_LOG, HAS_FLOW_LOG, logAt, namesInTurns, NOT_SAVED } from './first-walk.ts';
import { FileEvents } from './file-events.ts';
import { FlowKeys } from './flow-keys.ts';
import { type Head, mergeHeads, type ScanPart } from './head-scan.ts';
import { IndexSaver, type SavedIndexOptions } from './index-saver.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { SavedListing } from './saved-listing.ts';
import { type NewLog, type SessionEntry, SessionIndex } from './session-index.ts';
import { Spool } from './spool.ts';
import { stampNow } from './stamp.ts';
import { DataTree, noticesIn, type TreeChanges, type TreeFile } from './tree.ts';
import { walkFromRecords } from './walk-answer.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Logs found from their names before the walk is in (head-scan.ts), in two looks: the first page's
 * (FIRST_BATCH: a small head is found sooner by a worker that has just started), then this many, beside the
 * walk, to keep one core reading while the other walks.
 */
const HEAD_LOGS = 2_048;
/** A saved index's size past which a restart finds its first page by name beside the walk (~230k sessions; at 100k the walk is in by then). */
const HEAD_BESIDE_SAVED_BYTES = 128 * 1024 * 1024;
/** A log this big is summarized alone: a 100 MB log takes a worker half a second, and the first page must not wait behind it. */
export const BIG_LOG_BYTES = 8 * 1024 * 1024;
/** Logs given their entries per turn of the event loop while the first walk is listed. */
const LIST_SLICE = 1_000;
/** Parts of a saved index's check per worker: the one that walks first takes its share after. */
const CHECK_PARTS_PER_WORKER = 4;
/** At most this many chunks a part: the event loop lists a part while the workers check the next ones. */
const CHECK_PART_CHUNKS = 16;
/** Whether a saved index holds directories (saved-tree.ts). */
const holdsDirs = (source: SavedSource): boolean => source.tree[1] > 0;
/** The saved index's chunks where a head's logs are looked for (the newest: a head holds fewer than a chunk). */
const HEAD_CHUNKS = 2;
/** In a polled directory, a log unchanged for this long is stamped only every QUIET_EVERY_TICKS ticks. */
const QUIET_MS = 10 * 60_000;
const QUIET_EVERY_TICKS = 10;
/** A file's mtime comes from the kernel's coarse clock, a tick behind the wall clock: a log so much older than start is named too. */
const ANNOUNCE_SLACK_MS = 1_000;

export interface Progress {
  /** Logs summarized at least once. */
  indexed: number;
  /** Logs found. */
  total: number;
}

export interface StoreOptions {
  dataDir: string;
  pool: Pool;
  hub: Hub;
  /** Use change notifications (tests turn them off to exercise the polling fallback). */
  watch?: boolean;
  /** Find the newest logs by name before the walk (default true; tests turn it off so every log comes from the walk). */
  head?: boolean;
  /** Logs listed per turn of the event loop at start (tests make it small). */
  listSlice?: number;
  /** Sessions the filter pass looks through per turn for those without a filter (filter-pass.ts; tests set a few). */
  filterPassPiece?: number;
  /** A saved index's bytes past which a restart finds its newest logs by name beside the walk (HEAD_BESIDE_SAVED_BYTES; tests make it 0). */
  headBesideBytes?: number;
  /** Logs of this size and more are summarized alone (BIG_LOG_BYTES; tests make it small). */
  bigLogBytes?: number;
  /** Where the index is saved between runs (index-saver.ts); none: every start reads every log. */
  savedIndex?: SavedIndexOptions | null;
  /** Whole lines for stderr. */
  warn?: (line: string) => void;
}

export class Store {
  readonly tree: DataTree;
  /** No changes are kept while the cold index runs: it is announced as one change of everything (feeder.ts). */
  readonly sessions: SessionIndex;
  readonly details: DetailCache;
  /** Scratch files: details, outlines of big sessions (spool.ts). */
  readonly spool = new Spool();
  /** The index lane's put-off work waits while a long request holds this (put-off.ts). */
  readonly putOff = new PutOff();
  /** The session page's outlines of big logs, made when they were indexed (data/session-views.ts reads them). */
  readonly bigOutlines: BigOutlines;
  /** Logs of this size and more are big: summarized alone, their page's outline kept. */
  readonly bigLogBytes: number;
  private readonly flows = new FlowKeys();
  private readonly fileEvents: FileEvents;
  private readonly feeder: Feeder;
  private readonly pool: Pool;
  private readonly listSliceSize: number;
  private readonly head: boolean;
  private readonly headBesideBytes: number;
  /** Files found after the first walk are indexed as they come. */
  private walked = false;
  /** While the start-up lists logs: those it listed from the head, before the walk (their keys may still change). */
  private headRels: Set<string> | null = new Set();
  /** While the start-up lists logs from a saved index (a session asked for by key is listed at once: sessionWhileListing). */
  private savedListing: SavedListing | null = null;
  /** Logs listed while the saved index is checked, admitted once it is (checkSaved). */
  private heldForCheck: SessionEntry[] | null = null;
  private markSliceListed: () => void = () => {};
  /** Resolves when the next slice of logs is listed (or every log is). */
  private sliceListed = this.nextSliceListed();
  private timer: NodeJS.Timeout | null = null;
  private catalogMemo: { version: number; flowsVersion: number; catalog: Catalog } | null = null;
  private memo = new Map<string, { version: number; value: unknown }>();
  private closed = false;
  /** While the first walk's logs are being listed: how many it found (the progress's total). */
  private expected = 0;
  private pollRound = 0;
  /** Logs queued because the tree saw them written: a request waits for these, not for the sweep's re-reads. */
  private readonly written = new Set<SessionEntry>();
  private readonly saver: IndexSaver | null;

  constructor(options: StoreOptions) {
    this.pool = options.pool;
    const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
    // Filters go to a file beside the saved index, where the console writes it (not under --read-only).
    const saved = options.savedIndex;
    this.sessions = new SessionIndex({ trackChanges: false, filters: filterArenaIn(saved?.write ? dirname(saved.file) : null, warn) });
    this.tree = new DataTree(options.dataDir, options.watch ?? true);
    this.details = new DetailCache(options.pool, this.spool);
    this.bigOutlines = new BigOutlines(this.spool, saved ? new KeptOutlines(keptOutlinesDir(saved.file), saved.write, BIG_OUTLINE_BYTES) : null);
    this.fileEvents = new FileEvents(options.hub, (rel) => this.tree.pathOf(rel));
    this.listSliceSize = options.listSlice ?? LIST_SLICE;
    this.head = options.head ?? true;
    this.headBesideBytes = options.headBesideBytes ?? HEAD_BESIDE_SAVED_BYTES;
    this.bigLogBytes = options.bigLogBytes ?? BIG_LOG_BYTES;
    this.feeder = new Feeder({
      pool: options.pool,
      hub: options.hub,
      sessions: this.sessions,
      spool: this.spool,
      outlines: this.bigOutlines,
      putOff: this.putOff,
      bigLogBytes: this.bigLogBytes,
      announceFrom: Date.now() - ANNOUNCE_SLACK_MS,
    });
    this.coldIndexDone = this.feeder.coldIndexDone;
    this.searchFiltersMade = this.coldIndexDone
      .then(() => (this.closed ? undefined : makeMissingFilters(options.pool, this.sessions, this.putOff, () => this.closed, options.filterPassPiece)))
      .catch(() => undefined);
    // The directories a save may vouch for: those stamped before the notifications of every change made until now are in.
    const stillDirs = async () => {
      const before = Date.now();
      await noticesIn();
      return this.tree.stillDirs(before);
    };
    this.saver = options.savedIndex ? new IndexSaver(options.savedIndex, this.tree.root, this.sessions, warn, stillDirs) : null;
    const saver = this.saver;
    if (saver) {
      // Saved as soon as a cold index is in (a stop soon after has nothing left to write in its few seconds),
      // and again once the filters it left are made, so a restart has them at once; after reading few logs, only then.
      void this.coldIndexDone.then(() => !this.closed && saver.coldIndexDone(this.feeder.matchedSaved, this.feeder.freshReads));
      void this.searchFiltersMade.then(() => (this.closed ? undefined : saver.save()));
    }
  }

  private markOpened: () => void = () => {};
  /** Resolves once the tree is known and the newest logs are in the index (the list can answer its first page). */
  readonly opened = new Promise<void>((resolve) => {
    this.markOpened = resolve;
  });
  private markListed: () => void = () => {};
  /** Resolves once every log found by the first walk has its entry and key (lookups by key wait for it). */
  readonly listed = new Promise<void>((resolve) => {
    this.markListed = resolve;
  });
  /** Resolves once the cold index is done (every log found at start summarized), or the store is closed. */
  readonly coldIndexDone: Promise<void>;
  /** Resolves once the sessions the cold index read have their search filters (filter-pass.ts), or the store is closed. */
  readonly searchFiltersMade: Promise<void>;

  /**
   * The first walk runs in the pool from the start; meanwhile the newest logs are found from their names
   * (head-scan.ts) and queued at once, or, with a saved index, its entries are checked against the files
   * (checkSaved). Then the walk's logs get their entries newest first, a slice per turn of the event loop,
   * each slice queued for indexing as it comes (or held for the check), so the first page is read while the
   * rest is listed; then the tree is adopted. Resolves when every log is listed (indexing goes on).
   */
  async open(): Promise<void> {
    try {
      if (this.closed) return;
      // With a saved index the walk starts on one worker once the file's header is read, the other checks the
      // saved entries against the files, and the unchanged ones the check's first part finds are the first page. Without one, the first page's logs are found by
      // name first (a small head alone is found sooner: at a million logs, beside the walk, a second later),
      // queued at once; then the walk on one worker while the other reads a larger head.
      const savedBytes = this.saver?.fileBytes() ?? 0;
      // With a saved index the walk waits for its header (a few ms): the directories it holds unchanged are not read.
      let walking: Promise<FirstWalk | null> | null = null;
      // Beside a big saved index that holds no directory the walk is seconds long: the newest logs are found by
      // name at once too, in the request lane (the index lane walks and checks), and checked one by one against
      // the saved entries. With its directories the walk reads only those that changed, and the first page is
      // the check's first part.
      let heading = null as Promise<Head | null> | null;
      // The check starts once the file's header is read; what it finds is used only if the file is then loaded.
      let checking = null as Promise<SessionEntry[]> | null;
      let parts: CheckPart[] = [];
      const saved = await this.saver?.load((source) => {
        if (this.head && savedBytes >= this.headBesideBytes && !holdsDirs(source)) heading = this.newestLogs('interactive');
        walking = this.walk(source);
        parts = this.checkParts(source);
        checking = this.checkSaved(parts);
      });
      if (saved) this.feeder.useSaved(saved);
      // The head's logs are looked up by path in the saved index: the newest, so in its first chunks.
      if (saved && heading !== null) saved.mapPlaces(HEAD_CHUNKS);
      if (this.closed) return;
      // What the check finds unchanged is listed from the saved index as each part comes in, before the walk.
      const listing = saved && parts.length > 0 ? new SavedListing(this.sessions, this.feeder, saved, this.tree.root) : null;
      this.savedListing = listing;
      const prelisting = listing ? this.listSaved(listing, saved!, parts) : null;
      const headBeside = heading !== null && checking !== null;
      const first = heading !== null ? await heading : this.head && !checking ? await this.newestLogs('index') : null;
      if (this.closed) return;
      if (first) {
        this.expected = first.found;
        for (const log of first.logs) this.headRels?.add(log.rel);
        this.listSlice(first.logs, { stamped: headBeside });
        this.markOpened();
      }
      walking ??= this.walk();
      const more = first && !checking ? await this.pool.run('newestLogsTask', { root: this.tree.root, count: HEAD_LOGS }, 'index').catch(() => null) : null;
      if (this.closed) return;
      if (more) {
        for (const log of more.logs) this.headRels?.add(log.rel);
        this.listSlice(more.logs);
      }
      const head = first ? new Map([...first.logs, ...(more?.logs ?? [])].map((log) => [log.rel, log])) : null;
      const walk = await walking;
      if (walk === null || this.closed) return;
      this.expected = walk.flags.length + walk.keptLogs;
      // The logs the walk lists that a saved index may hold (all but those new in a directory it holds) are looked
      // up by path in it.
      if (walk.flags.some((f) => (f & NOT_SAVED) === 0)) saved?.mapPlaces();
      // The walk was read back in this turn: its names are split in the next.
      await nextTurn();
      if (this.closed) return;
      const names = await namesInTurns(walk);
      if (this.closed) return;
      // The directories whose logs are listed from the saved index (but for those the walk lists), by path: their names now.
      const kept = new Map(walk.dirs.flatMap((d, i) => (d.kept ? [[d.rel, { names: names[i]!, gone: new Set(d.gone) }] as const] : [])));
      listing?.keep(kept, walk.dirs.reduce((n, d) => n + (d.kept && !d.diffed ? d.savedLogs : 0), 0));
      // A session asked for by key meanwhile may now be found by its name (sessionWhileListing).
      this.markSliceListed();
      const slices = this.slicesOf(walk, names);
      // Without a head, the walk's first slice goes to the pool before anything else (not held for the check).
      // The logs listed from the saved index are only looked up (seenByWalk).
      const unlisted = (slice: NewLog[]) => (listing ? slice.filter((log) => !listing.seenByWalk(log)) : slice);
      // Logs the saved index cannot hold are read at once; the others wait for the check (a slice's key groups
      // are listed in one turn).
      const walkFirst = slices.next().value;
      if (!head && walkFirst) this.listWalked(walkFirst, unlisted, { now: true });
      else if (walkFirst) this.listWalked(walkFirst, unlisted);
      // With nothing listed yet, the saved listing's first piece opens the store (a walk of kept directories is in first).
      if (listing === null || this.sessions.size > 0) this.markOpened();
      // Every log is queued before the tree is adopted: the pool reads while the event loop adopts it (what
      // changes meanwhile moves its directory's stamp, which adopt compares with the walk's).
      for (const slice of slices) {
        if (this.closed) return;
        await nextTurn();
        this.listWalked(slice, unlisted);
      }
      // The logs listed meanwhile are admitted once the saved entries are checked; the tree is adopted while
      // the check ends (both a slice per turn).
      const adopting = this.tree.adopt(walk.dirs, names);
      const held = await checking;
      await prelisting;
      // In a kept directory, what the check found changed is read again; listed from the saved index and not found
      // by the walk: gone since the check looked.
      if (listing && kept.size > 0) this.listSlice(listing.changedIn(), { now: true });
      const unseen = listing ? await listing.unseen() : [];
      if (this.closed) return;
      this.removeFiles(unseen.map((e) => ({ rel: e.rel, name: e.rel.slice(e.rel.lastIndexOf('/') + 1), kind: 'session' as const })));
      if (held) await this.feeder.admitInTurns(held);
      await this.feeder.applyTaken();
      await adopting;
      this.flows.rebuild(this.tree);
      if (head) this.reconcileHead([...head.values()]);
      this.walked = true;
      // What changed since the walk (its directories' stamps moved) is seen from here on.
      this.applyTree(this.tree.refresh({ pollFiles: false }));
      this.timer = setInterval(() => this.tick(), WATCH_POLL_MS);
      this.timer.unref();
      this.feeder.everyLogIn();
    } finally {
      this.expected = 0;
      this.headRels = null;
      this.savedListing = null;
      this.markOpened();
      this.markListed();
      this.markSliceListed();
    }
  }

  /**
   * The first walk, in the pool, read back from the spool; walked here if the pool cannot run it, unless the
   * store was closed meanwhile (null: a closing console does not walk 160k files on its event loop).
   */
  private async walk(saved?: SavedSource): Promise<FirstWalk | null> {
    const out = this.spool.file('walk');
    try {
      await this.pool.run('walkTreeTask', { root: this.tree.root, out, ...(saved ? { saved } : {}) }, 'index');
      return await walkFromRecords(await readFile(out));
    } catch {
      return this.closed ? null : firstWalk(this.tree.root);
    } finally {
      this.spool.remove(out);
    }
  }

  /**
   * The saved index's entries checked against the files in the pool, in parts that both of the index's
   * workers take as they come free (one walks first), in the saved order: each resolves with what it found
   * (null when it cannot vouch for anything). The first part is one chunk, the newest sessions (the file is saved
   * in the list's order): the first page, a moment after the file's header is read.
   */
  private checkParts(source: SavedSource): CheckPart[] {
    const count = this.pool.threads * CHECK_PARTS_PER_WORKER;
    const chunks = source.chunks.length;
    const size = Math.max(1, Math.min(CHECK_PART_CHUNKS, Math.ceil((chunks - 1) / count)));
    const starts = chunks === 0 ? [] : [0, ...Array.from({ length: Math.ceil((chunks - 1) / size) }, (_, i) => 1 + i * size)];
    return starts.map((first, i) => {
      const end = starts[i + 1] ?? chunks;
      return { first, found: this.pool.run('checkSavedTask', { root: this.tree.root, source, first, end }, 'index').catch(() => null) };
    });
  }

  /**
   * The saved entries the check finds unchanged, listed with their summaries part by part in the saved order
   * (the list's, mostly), a chunk per turn of the event loop: the first part is the first page.
   */
  private async listSaved(listing: SavedListing, saved: SavedEntries, parts: readonly CheckPart[]): Promise<void> {
    this.expected = Math.max(this.expected, saved.size);
    this.sessions.reserve(saved.size);
    // A piece per turn, doubling up to a chunk: the first pieces run before the code is optimized.
    let piece = Math.min(FIRST_BATCH, this.listSliceSize);
    for (const part of parts) {
      const found = await part.found;
      if (found === null) {
        this.markOpened();
        continue;
      }
      for (let c = 0; c < found.length; c++) {
        for (let from = 0; from < found[c]!.length; from += piece, piece = Math.min(piece * 2, this.listSliceSize)) {
          if (this.closed) return;
          listing.listChunk(part.first + c, found[c]!, from, from + piece);
          this.markOpened();
          this.markSliceListed();
          await nextTurn();
        }
      }
    }
  }

  /**
   * Until the check is done the logs the walk lists are held (`heldForCheck`); it resolves with them, to be
   * admitted.
   */
  private checkSaved(parts: readonly CheckPart[]): Promise<SessionEntry[]> {
    this.heldForCheck = [];
    return Promise.all(parts.map((part) => part.found))
      .then((found) => {
        if (found.every((part) => part !== null)) this.feeder.useChecked(found.flat());
      })
      .catch(() => undefined)
      .then(() => {
        const held = this.heldForCheck ?? [];
        this.heldForCheck = null;
        return held;
      });
  }

  /**
   * The head was read before the walk: a log the walk did not find went in between, and a companion may have
   * come or gone; from here on the tree's notifications see to such changes.
   */
  private reconcileHead(head: readonly NewLog[]): void {
    this.removeFiles(head.filter((log) => !this.tree.hasFile(log.rel)).map((log) => ({ rel: log.rel, name: log.name, kind: 'session' as const })));
    for (const log of head) {
      const e = this.sessions.byRel.get(log.rel);
      if (!e) continue;
      const stem = log.rel.slice(0, -JSONL.length);
      for (const [which, suffix] of [['hasFlowLog', FLOW_LOG], ['hasConfirmLog', CONFIRM_LOG]] as const) {
        const there = this.tree.hasFile(stem + suffix);
        if (e[which] === there) continue;
        this.sessions.setCompanion(log.rel, which, there);
        if (e.stamp !== null) this.feeder.enqueue(e);
      }
    }
  }

  /**
   * The walked logs in slices of about LIST_SLICE, cut between key groups (the walk puts a group's logs
   * together), so a key once shown never changes when an older log of the same stem is listed after it.
   */
  private *slicesOf(walk: FirstWalk, names: readonly (readonly string[])[]): Generator<WalkSlice> {
    let slice: NewLog[] = [];
    let fresh: NewLog[] = [];
    // The first is a page's worth: without a head it is the first page.
    let size = Math.min(FIRST_BATCH, this.listSliceSize);
    for (let i = 0; i < walk.flags.length; i++) {
      const f = walk.flags[i]!;
      if (f & GROUP_START && slice.length + fresh.length >= size) {
        yield { logs: slice, fresh };
        slice = [];
        fresh = [];
        // Then doubling up to the slice's size: the first slices run before the code is optimized.
        size = Math.min(size * 2, this.listSliceSize);
      }
      const { name, rel } = logAt(walk, names, i);
      ((f & NOT_SAVED) === 0 ? slice : fresh).push({ rel, name, flowLog: (f & HAS_FLOW_LOG) !== 0, confirmLog: (f & HAS_CONFIRM_LOG) !== 0 });
    }
    if (slice.length + fresh.length > 0) yield { logs: slice, fresh };
  }

  /**
   * The first page's logs by name (head-scan.ts), or null where the walk must find them: the directories split
   * between the lane's workers, one scan of them all where the parts cannot be merged.
   */
  private async newestLogs(lane: 'interactive' | 'index'): Promise<Head | null> {
    const scan = (part?: ScanPart) => this.pool.run('newestLogsTask', { root: this.tree.root, count: FIRST_BATCH, part }, lane).catch(() => null);
    const of = this.pool.threads;
    if (of < 2) return scan();
    const parts = await Promise.all(Array.from({ length: of }, (_, index) => scan({ index, of })));
    return mergeHeads(parts, FIRST_BATCH) ?? (this.closed ? null : scan());
  }

  /**
   * A slice of the walk's logs: those the saved index may hold wait for its check (unless `now`), the others are
   * read at once; those no saved entry can be are counted apart, so the saved listing needs no lookups for them.
   */
  private listWalked(slice: WalkSlice, unlisted: (logs: NewLog[]) => NewLog[], { now = false }: { now?: boolean } = {}): void {
    const logs = unlisted(slice.logs);
    if (logs.length > 0) this.listSlice(logs, { now });
    if (slice.fresh.length > 0) this.savedListing?.listedApart(this.listSlice(slice.fresh, { now: true }));
  }

  /**
   * `now`: not held for the saved entries' check; `stamped`: checked against them here (feeder.admitStamped).
   * Answers how many were added (a log listed already is not).
   */
  private listSlice(logs: readonly NewLog[], { now = false, stamped = false }: { now?: boolean; stamped?: boolean } = {}): number {
    const added = this.sessions.add(this.tree.root, logs);
    if (stamped) this.feeder.admitStamped(added);
    else if (this.heldForCheck && !now) for (const e of added) this.heldForCheck.push(e);
    else this.feeder.admit(added);
    this.feeder.pump();
    this.markSliceListed();
    return added.length;
  }

  private nextSliceListed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.markSliceListed = () => {
        this.sliceListed = this.nextSliceListed();
        resolve();
      };
    });
  }

  /** Save the index now (a clean stop does, before close); once closed, wait for a save in flight to be let go. */
  async save(): Promise<void> {
    if (this.walked) await this.saver?.save();
  }

  close(): void {
    this.closed = true;
    this.saver?.close();
    this.headRels = null;
    this.markSliceListed();
    this.markOpened();
    if (this.timer) clearInterval(this.timer);
    this.tree.close();
    this.spool.close();
    this.feeder.close();
    this.putOff.close();
    this.sessions.filters.close();
  }

  /** The cold index took most of its summaries from the saved index (feeder.ts): few logs were read to build it. */
  get builtFromSaved(): boolean {
    return this.feeder.builtFromSaved;
  }

  get version(): number {
    return this.sessions.version * 1_000_003 + this.flows.version;
  }

  progress(): Progress | null {
    if (!this.feeder.cold) return null;
    return { indexed: this.sessions.summarizedCount, total: Math.max(this.expected, this.sessions.size) };
  }

  /**
   * Wait until the cold index is done, or `budgetMs` passed: a small directory answers complete, a big one
   * answers what it has so far (with `progress()`).
   */
  async warm(budgetMs: number, enough: (summarized: number) => boolean = () => false): Promise<void> {
    await this.opened;
    await this.feeder.warm(budgetMs, enough);
  }

  /**
   * Apply what the tree knows now, and wait (at most `budgetMs`) for the logs it touched to be summarized:
   * a request sees what was written before it was made.
   */
  async sync(budgetMs = 2_000): Promise<void> {
    await this.opened;
    await this.touched();
    for (const e of this.written) if (!this.feeder.isPending(e)) this.written.delete(e);
    await this.feeder.read([...this.written], budgetMs);
  }

  /**
   * Where a session's search filter starts in its arena (`sessions.filters`: its memory or its file, its bytes
   * written), or -1 when the search must read its files: it has none, or its files changed since it was made
   * (the feeder has them queued or put off).
   */
  searchFilterAt(e: SessionEntry): number {
    return e.filterSlot < 0 || this.feeder.isBehind(e) ? -1 : this.sessions.filters.at(e.filterSlot);
  }

  /** A value derived from the index, computed once per version of it. */
  derived<T>(name: string, make: () => T): T {
    const hit = this.memo.get(name);
    if (hit && hit.version === this.version) return hit.value as T;
    const value = make();
    if (this.memo.size >= 256) this.memo.clear();
    this.memo.set(name, { version: this.version, value });
    return value;
  }

  /**
   * While the start-up lists logs, the session of this key as soon as it is listed and its key can no longer
   * change: the walk lists the logs that share a key base together, so only a log listed from the head, before
   * the walk, may still be given another key. Undefined once every log is listed (then the catalog answers).
   */
  async sessionWhileListing(key: string): Promise<SessionEntry | undefined> {
    while (this.headRels !== null) {
      const e = this.sessions.byKey.get(key);
      if (e && !this.headRels.has(e.rel)) return e;
      // Not listed yet from the saved index: its log found by its key's name, and listed now.
      if (e === undefined && this.savedListing?.listKey(key)) continue;
      await this.sliceListed;
    }
    return undefined;
  }

  /** The catalog as the data layer reads it: sessions and flows by key (no copy per request). */
  catalog(): Catalog {
    const memo = this.catalogMemo;
    if (memo && memo.version === this.sessions.version && memo.flowsVersion === this.flows.version) return memo.catalog;
    const sessions = this.sessions;
    const { files: flows, byKey: flowByKey } = this.flows;
    let all: SessionEntry[] | null = null;
    const catalog: Catalog = {
      get sessions() {
        all ??= sessions.byRel.all().sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
        return all;
      },
      sessionCount: sessions.size,
      flows,
      session: (key) => sessions.byKey.get(key),
      flow: (key) => flowByKey.get(key),
      flowAt(path) {
        const direct = flows.find((f) => f.path === path);
        if (direct) return direct;
        const canonical = canonicalOf(path);
        return canonical === null ? undefined : flows.find((f) => canonicalOf(f.path) === canonical);
      },
    };
    this.catalogMemo = { version: sessions.version, flowsVersion: this.flows.version, catalog };
    return catalog;
  }

  /** Apply what changed now rather than at the next tick (the console's own moves and writes among it). */
  async touched(): Promise<void> {
    await noticesIn();
    if (!this.walked) return;
    this.applyTree(this.tree.refresh({ checkDirs: true, pollFiles: false }));
    this.feeder.pump();
  }

  /** Resolves once the cold index is done and the outlines it put off are written. */
  outlined(): Promise<void> {
    return this.feeder.outlined();
  }

  // -------------------------------------------------------------------------------------------------------

  private tick(): void {
    if (this.closed || !this.walked) return;
    try {
      this.applyTree(this.tree.refresh());
      this.feeder.sweep();
      this.feeder.rereadDue();
      this.feeder.pump();
      this.feeder.publish();
      this.fileEvents.publish();
    } catch (err) {
      process.stderr.write(`engine-console: the data directory watch failed once: ${errorText(err)}\n`);
    }
  }

  /** Apply what the tree saw; the logs it queues are kept in `written` until read. */
  private applyTree(changes: TreeChanges): void {
    const keyOf = (rel: string) => this.flows.keyByRel.get(rel);
    this.fileEvents.noteRemoved(changes, keyOf);
    const fed = changes.removed.length ? this.removeFiles(changes.removed) : [];
    if (changes.added.length) fed.push(...this.addFiles(changes.added));
    this.fileEvents.noteChanged(changes, keyOf);
    for (const f of changes.touched) {
      const e = this.entryOf(f);
      if (e) {
        this.feeder.touch(e);
        fed.push(e);
      }
    }
    // Polled directories: stat here, and a log quiet for ten minutes only every tenth second.
    const nowMs = Date.now();
    this.pollRound = (this.pollRound + 1) % QUIET_EVERY_TICKS;
    for (const f of changes.polled) {
      const e = this.entryOf(f);
      if (!e || e.stamp === null || this.feeder.isQueued(e)) continue;
      if (nowMs - e.mtimeMs > QUIET_MS && this.pollRound !== 0) continue;
      if (stampNow(e) !== e.stamp) {
        this.feeder.touch(e);
        fed.push(e);
      }
    }
    for (const e of fed) this.written.add(e);
  }

  /** The index entry a log or companion file belongs to. */
  private entryOf(f: TreeFile): SessionEntry | undefined {
    if (f.kind === 'session') return this.sessions.byRel.get(f.rel);
    if (f.kind === 'flowlog' || f.kind === 'confirmlog') return this.sessions.byRel.get(ownerRel(f));
    return undefined;
  }

  private addFiles(files: readonly TreeFile[]): SessionEntry[] {
    const logs = files.filter((f) => f.kind === 'session');
    const added = this.addLogs(logs);
    if (this.walked) for (const e of added) this.feeder.enqueue(e, { first: true });
    const fed = [...added];
    // Companions that arrived beside a log already indexed.
    for (const f of files) {
      if (f.kind !== 'flowlog' && f.kind !== 'confirmlog') continue;
      const e = this.sessions.setCompanion(ownerRel(f), f.kind === 'flowlog' ? 'hasFlowLog' : 'hasConfirmLog', true);
      if (e && e.stamp !== null) {
        this.feeder.enqueue(e);
        fed.push(e);
      }
    }
    if (files.some((f) => f.kind === 'flow')) this.flows.rebuild(this.tree);
    return fed;
  }

  /** Entries for these logs, with their companions as the tree has them now. */
  private addLogs(logs: readonly TreeFile[]): SessionEntry[] {
    const companion = (f: TreeFile, suffix: string) => this.tree.hasFile(f.rel.slice(0, -JSONL.length) + suffix);
    return this.sessions.add(
      this.tree.root,
      logs.map((f) => ({ rel: f.rel, name: f.name, flowLog: companion(f, FLOW_LOG), confirmLog: companion(f, CONFIRM_LOG) })),
    );
  }

  private removeFiles(files: readonly TreeFile[]): SessionEntry[] {
    const fed: SessionEntry[] = [];
    for (const f of files) {
      if (f.kind === 'session') {
        const e = this.sessions.remove(f.rel);
        this.bigOutlines.drop(this.tree.pathOf(f.rel));
        if (e) this.feeder.forget(e);
      } else if (f.kind === 'flowlog' || f.kind === 'confirmlog') {
        const e = this.sessions.setCompanion(ownerRel(f), f.kind === 'flowlog' ? 'hasFlowLog' : 'hasConfirmLog', false);
        if (e && e.stamp !== null) {
          this.feeder.enqueue(e);
          fed.push(e);
        }
      }
    }
    if (files.some((f) => f.kind === 'flow')) this.flows.rebuild(this.tree);
    return fed;
  }
}

/** A part of the saved index's check: its first chunk, and what the pool found of its entries' files. */
/** A slice of the walk's logs: those a saved index may hold, and those it cannot (new in a directory it holds). */
interface WalkSlice {
  logs: NewLog[];
  fresh: NewLog[];
}

interface CheckPart {
  first: number;
  found: Promise<Uint8Array[] | null>;
}

/** The session log a companion belongs to. */
function ownerRel(f: TreeFile): string {
  const suffix = f.kind === 'flowlog' ? FLOW_LOG : CONFIRM_LOG;
  return `${f.rel.slice(0, -suffix.length)}${JSONL}`;
}

function canonicalOf(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
