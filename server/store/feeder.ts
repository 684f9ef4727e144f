// What keeps the index fed: the queue of logs to (re)summarize in the pool, in batches, a big log alone; the
// re-reads of growing logs at a measured pace; the sweep that re-stamps a few hundred logs a tick for changes
// a notification missed; and the end of the cold index (every log found at start summarized once), after
// which the big logs' outlines it put off are written and changes are announced by key.
import type { Hub } from '../events/hub.ts';
import type { Pool } from '../workers/pool.ts';
import { errorText } from '../../shared/error-text.ts';
import type { BigOutlines } from './big-outlines.ts';
import { indexBatch } from './index-batch.ts';
import type { AnswerView, IndexItem, IndexResult } from './index-wire.ts';
import type { SavedEntries, SavedEntry } from './persisted-index.ts';
import type { SessionEntry, SessionIndex } from './session-index.ts';
import type { Spool } from './spool.ts';
import { emptyFigures } from './summary-columns.ts';
import { stampNow } from './stamp.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PutOff } from './put-off.ts';

/**
 * How long a turn of the event loop takes saved summaries into the index at start: timed, not counted (the
 * first thousand, before the code is optimized, took as long as ten thousand later).
 */
const TAKEN_TURN_MS = 8;
/** Saved summaries taken between looks at the clock. */
const TAKEN_BETWEEN_LOOKS = 64;
/** Logs re-stamped per tick by the sweep. */
const SWEEP_PER_TICK = 400;
/** Batches of the cold index: small first (the first page sooner), then larger (less overhead). */
export const FIRST_BATCH = 64;
const BATCH = 1_000;
/** A growing log is read again at most this often per byte: 10 MB a second, at most every 10 s. */
const REREAD_BYTES_PER_MS = 10_000;
const REREAD_MAX_MS = 10_000;

export interface FeederOptions {
  pool: Pool;
  hub: Hub;
  sessions: SessionIndex;
  spool: Spool;
  outlines: BigOutlines;
  /** The outlines put off by the cold index wait their turn here (put-off.ts). */
  putOff: PutOff;
  /** Logs of this size and more are summarized alone, one at a time, while other workers take small batches. */
  bigLogBytes: number;
  /** A log modified at or after this time (wall ms) is named in `changed` even during the cold index. */
  announceFrom: number;
}

export class Feeder {
  private readonly o: FeederOptions;
  /** Logs waiting to be (re)indexed, in the order they will be. */
  private readonly queue: SessionEntry[] = [];
  private readonly queued = new Set<SessionEntry>();
  /** Big logs waiting to be read alone. */
  private readonly bigQueue: SessionEntry[] = [];
  /** Big logs the cold index read without their outline: it is written once the index is done. */
  private readonly outlineLater: SessionEntry[] = [];
  private outlining: Promise<void> = Promise.resolve();
  private bigInFlight = false;
  /** Growing logs waiting for their next read. */
  private readonly deferred = new Set<SessionEntry>();
  private inFlight = 0;
  /** Logs being read now. */
  private readonly reading = new Set<SessionEntry>();
  /** Requests waiting for some logs to be read: each answers whether it is done waiting. */
  private readWaiters: (() => boolean)[] = [];
  private coldIndexed = false;
  /** The start-up has queued every log it found (until then an empty queue is not the end of the cold index). */
  private everyLogQueued = false;
  /** Waiting for the cold index (or for enough of it): each answers whether it is done waiting. */
  private coldWaiters: (() => boolean)[] = [];
  /** The sweep's snapshot of the entries, its place in it, and whether a part of it is being stamped. */
  private sweepList: SessionEntry[] = [];
  private sweepAt = 0;
  private sweeping = false;
  private announcedCount = 0;
  private closed = false;
  /** The index saved by an earlier run, by log: an entry's summary is taken from it when its stamps are unchanged. */
  private saved: SavedEntries | null = null;
  /** A saved entry's answer as it is read in place, reused. */
  private readonly savedView: AnswerView = { stamp: '', mtimeMs: 0, filter: null, figures: emptyFigures() };
  /** What the pool found of the saved entries' files (useChecked). */
  private checked: readonly Uint8Array[] | null = null;
  /**
   * Logs listed whose saved entries the pool found unchanged, with their places in the saved index, applied a
   * slice per turn (applyTaken); each saved entry is made only then.
   */
  private taken: SessionEntry[] = [];
  private takenPlaces: number[] = [];
  /** Logs the cold index summarized by reading them (not taken from the saved index). */
  private readFresh = 0;
  /** The cold index found every log as the saved index had it, and no other (saving it again would change nothing). */
  matchedSaved = false;

  /** The cold index took nine in ten of its summaries or more from the saved index (it read few logs itself). */
  builtFromSaved = false;
  private markColdIndexDone: () => void = () => {};
  /** Resolves once the cold index is done (every log found at start summarized), or the feeder is closed. */
  readonly coldIndexDone = new Promise<void>((resolve) => {
    this.markColdIndexDone = resolve;
  });

  /** How many logs the cold index summarized by reading them. */
  get freshReads(): number {
    return this.readFresh;
  }

  constructor(options: FeederOptions) {
    this.o = options;
  }

  /** Whether the cold index is done. */
  get cold(): boolean {
    return !this.coldIndexed;
  }

  isQueued(e: SessionEntry): boolean {
    return this.queued.has(e);
  }

  /** Queued or being read now. */
  isPending(e: SessionEntry): boolean {
    return this.queued.has(e) || this.reading.has(e);
  }

  /** Queued, being read, or waiting for its next read: its summary and search filter may be behind its files. */
  isBehind(e: SessionEntry): boolean {
    return this.isPending(e) || this.deferred.has(e);
  }

  /** Take summaries from the index an earlier run saved, for the logs not summarized yet whose files are as they were. */
  useSaved(saved: SavedEntries): void {
    if (this.coldIndexed) return;
    this.saved = saved;
    if (this.checked) saved.markChecked(this.checked);
  }

  /**
   * What the pool found of the saved entries' files (persisted-index.ts: checkSaved; it may end before the
   * file is loaded whole): those unchanged are taken as listed, without a batch.
   */
  useChecked(checked: readonly Uint8Array[]): void {
    this.checked = checked;
    this.saved?.markChecked(checked);
  }

  /** Logs just listed: those whose saved entries were found unchanged are taken (applyTaken), the others queued. */
  admit(entries: readonly SessionEntry[]): void {
    for (const e of entries) {
      const place = this.claim(e);
      if (place === -1) this.enqueue(e);
      else {
        this.taken.push(e);
        this.takenPlaces.push(place);
      }
    }
  }

  /**
   * Logs listed before the saved entries are checked (the newest by name, at start, beside a big saved
   * index): each takes its saved summary if its files' stamps, read here, are the saved ones, and is read
   * otherwise. A few dozen stats on the event loop instead of waiting for the walk and the whole check.
   */
  admitStamped(entries: readonly SessionEntry[]): void {
    const now = performance.now();
    for (const e of entries) {
      const saved = e.stamp === null ? this.saved?.get(e.rel, e.base) : undefined;
      if (saved === undefined || stampNow(e) !== saved.stamp) {
        this.enqueue(e);
        continue;
      }
      this.saved!.delete(e.rel);
      this.o.sessions.apply(e, saved.stamp, saved.mtimeMs, saved.result, now, { filter: saved.filter });
      this.outlineIfBig(e, saved.stamp);
    }
  }

  /**
   * Logs listed from the saved index itself (saved-listing.ts), at the places where the check found them
   * unchanged: each takes its saved summary now (or is read, if its entry was taken or does not decode).
   */
  admitChecked(entries: readonly SessionEntry[], places: readonly number[]): void {
    this.o.sessions.filters.reserve(entries.length);
    const now = performance.now();
    this.o.sessions.placing(() => {
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i]!;
        if (this.saved?.claimAt(places[i]!)) this.applySaved(e, places[i]!, now);
        else this.enqueue(e);
      }
    });
    this.pump();
  }

  /**
   * The logs listed while the saved index was checked, a slice per turn of the event loop: each taken and
   * applied at once, while its entry is at hand (a pass to take them all, then one to apply, touched 100k
   * entries twice), or queued.
   */
  async admitInTurns(entries: readonly SessionEntry[]): Promise<void> {
    this.o.sessions.filters.reserve(entries.length);
    await this.inTurns(entries.length, (i, now) => {
      const e = entries[i]!;
      // Taken already, as its part of the check came in (saved-listing.ts).
      if (e.stamp !== null) return;
      const place = this.claim(e);
      if (place === -1) this.enqueue(e);
      else this.applySaved(e, place, now);
    });
  }

  /** `step` for 0 to `count` - 1, TAKEN_TURN_MS per turn of the event loop; after each turn, the pool is fed and waiters told. */
  private async inTurns(count: number, step: (i: number, now: number) => void): Promise<void> {
    let i = 0;
    const turn = (): void => {
      const start = performance.now();
      let now = start;
      while (i < count && now - start < TAKEN_TURN_MS) {
        for (const end = Math.min(i + TAKEN_BETWEEN_LOOKS, count); i < end; i++) step(i, now);
        now = performance.now();
      }
    };
    while (i < count && !this.closed) {
      this.o.sessions.placing(turn);
      this.pump();
      if (!this.coldIndexed) this.coldWaiters = this.coldWaiters.filter((w) => !w());
      await nextTurn();
    }
  }

  /** The place of a log's saved entry if it can be taken (persisted-index.ts: claim), else -1. */
  private claim(e: SessionEntry): number {
    return e.stamp === null && this.saved ? this.saved.claim(e) : -1;
  }

  /** A claimed saved entry into the index (queued instead if its chunk does not decode). */
  private applySaved(e: SessionEntry, place: number, now: number): void {
    const view = this.savedView;
    const saved = this.saved?.readAt(place, this.o.sessions.valueIds, view, e.base);
    if (saved === true) {
      this.o.sessions.applyFigures(e, view.stamp, view.mtimeMs, view.figures, now, view.filter);
      // Let go of the chunk's filters.
      view.filter = null;
      return this.outlineIfBig(e, view.stamp);
    }
    if (!saved) return this.enqueue(e);
    this.o.sessions.apply(e, saved.stamp, saved.mtimeMs, saved.result, now, { filter: saved.filter });
    this.outlineIfBig(e, saved.stamp);
  }

  /** A big log taken from the saved index has its outline made after the cold index, unless one was kept. */
  private outlineIfBig(e: SessionEntry, stamp: string): void {
    if (e.size_bytes >= this.o.bigLogBytes && !this.o.outlines.find(e.path, stamp)) this.outlineLater.push(e);
  }

  /** The summaries `admit` took, into the index a slice per turn of the event loop. */
  async applyTaken(): Promise<void> {
    this.o.sessions.filters.reserve(this.taken.length);
    // Logs admitted while these are applied are taken in a round after them.
    const taken = this.taken;
    const places = this.takenPlaces;
    this.taken = [];
    this.takenPlaces = [];
    await this.inTurns(taken.length, (i, now) => this.applySaved(taken[i]!, places[i]!, now));
    if (this.taken.length > 0 && !this.closed) await this.applyTaken();
  }

  /** Queue a log; a new one (`first`) goes ahead: it is what a person who just ran an agent is looking for. */
  enqueue(e: SessionEntry, { first = false }: { first?: boolean } = {}): void {
    if (this.queued.has(e)) return;
    this.queued.add(e);
    if (first) this.queue.unshift(e);
    else this.queue.push(e);
  }

  /** A log changed: read it again now, or, if it keeps growing, once its pace allows. */
  touch(e: SessionEntry): void {
    if (e.stamp === null || this.queued.has(e)) return; // not indexed yet: it will be
    if (performance.now() < e.indexedAt + rereadDelay(e)) this.deferred.add(e);
    else this.enqueue(e);
  }

  /** A log that is gone: not read again. */
  forget(e: SessionEntry): void {
    this.queued.delete(e);
    this.deferred.delete(e);
  }

  /** Queue the growing logs whose pause is over. */
  rereadDue(): void {
    const now = performance.now();
    for (const e of [...this.deferred]) {
      if (now >= e.indexedAt + rereadDelay(e)) {
        this.deferred.delete(e);
        this.enqueue(e);
      }
    }
  }

  /** The start-up has queued every log it found: the cold index ends when they are read. */
  everyLogIn(): void {
    this.everyLogQueued = true;
    this.pump();
    if (this.idle) this.finishCold();
  }

  /** Nothing queued or being read. */
  get idle(): boolean {
    return this.queue.length === 0 && this.bigQueue.length === 0 && this.inFlight === 0;
  }

  /**
   * Wait (at most `budgetMs`) until these logs are read, not the whole queue; at once during the cold index,
   * which a request does not wait for whole.
   */
  async read(logs: readonly SessionEntry[], budgetMs: number): Promise<void> {
    const pending = (): boolean => logs.some((e) => this.isPending(e));
    if (!this.coldIndexed || !pending()) return;
    await new Promise<void>((resolve) => {
      const waiter = (): boolean => {
        if (!this.closed && pending()) return false;
        clearTimeout(t);
        resolve();
        return true;
      };
      const t = setTimeout(() => {
        this.readWaiters = this.readWaiters.filter((w) => w !== waiter);
        resolve();
      }, budgetMs);
      this.readWaiters.push(waiter);
    });
  }

  /** Wait until the cold index is done, or `enough` of it, or `budgetMs` passed. */
  async warm(budgetMs: number, enough: (summarized: number) => boolean): Promise<void> {
    if (this.coldIndexed || enough(this.o.sessions.summarizedCount)) return;
    await new Promise<void>((resolve) => {
      const waiter = (): boolean => {
        if (!this.coldIndexed && !enough(this.o.sessions.summarizedCount)) return false;
        clearTimeout(t);
        resolve();
        return true;
      };
      const t = setTimeout(() => {
        this.coldWaiters = this.coldWaiters.filter((w) => w !== waiter);
        resolve();
      }, budgetMs);
      this.coldWaiters.push(waiter);
    });
  }

  /** Announce what changed: during the cold index its progress (no keys) and the logs written since start, after it the changed keys. */
  publish(): void {
    const sessions = this.o.sessions;
    if (!this.coldIndexed) {
      if (sessions.summarizedCount !== this.announcedCount) {
        this.announcedCount = sessions.summarizedCount;
        this.o.hub.publish('changed', { what: 'sessions', keys: [] });
      }
      // Logs written since start, named even now: a page waiting for one sees it come.
      const written = sessions.drainChanged();
      if (written.length) this.o.hub.publish('changed', { what: 'sessions', keys: written });
      return;
    }
    const keys = sessions.drainChanged();
    if (keys.length) this.o.hub.publish('changed', { what: 'sessions', keys });
  }

  /**
   * Re-stamp the next SWEEP_PER_TICK logs in the pool (their stats held the event loop some 20 ms a tick at
   * 100k), one part at a time, over a snapshot of the entries taken when the last one ended.
   */
  sweep(): void {
    if (!this.coldIndexed || this.sweeping) return;
    const sessions = this.o.sessions;
    if (this.sweepAt >= this.sweepList.length) {
      this.sweepList = sessions.byRel.all();
      this.sweepAt = 0;
    }
    const part = this.sweepList.slice(this.sweepAt, this.sweepAt + SWEEP_PER_TICK);
    this.sweepAt += part.length;
    if (part.length === 0) return;
    this.sweeping = true;
    void this.o.pool
      .run('stampTask', part.map((e) => ({ path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog })), 'index')
      .then((stamps) => {
        part.forEach((e, i) => {
          if (stamps[i] !== e.stamp && e.stamp !== null && !this.closed && sessions.byRel.get(e.rel) === e) this.enqueue(e);
        });
        this.pump();
      })
      .catch(() => {})
      .finally(() => {
        this.sweeping = false;
      });
  }

  /**
   * Summarize queued logs in the pool, at most two batches per worker at a time (so a worker that ends one
   * starts the next at once, while this loop takes in the answers): small logs in batches, a big one alone
   * while another worker takes the small ones.
   */
  pump(): void {
    while (!this.closed && this.inFlight < this.o.pool.threads * 2) {
      const bigReady = this.bigQueue.length > 0 && !this.bigInFlight;
      if (bigReady && (this.queue.length === 0 || this.inFlight > 0)) {
        this.bigInFlight = true;
        this.readBatch(this.bigQueue.splice(0, 1), undefined);
      } else if (this.queue.length > 0) {
        const size = this.o.sessions.summarizedCount === 0 ? FIRST_BATCH : BATCH;
        this.readBatch(this.queue.splice(0, size), this.o.bigLogBytes);
      } else break;
    }
  }

  private readBatch(batch: SessionEntry[], bigFrom: number | undefined): void {
    const { sessions, spool, outlines } = this.o;
    for (const e of batch) {
      this.queued.delete(e);
      this.reading.add(e);
    }
    this.inFlight++;
    const alone = bigFrom === undefined;
    // During the cold index a big log's outline waits (writeOutlines): the list comes first.
    const outlineTo = alone && this.coldIndexed ? outlines.file() : undefined;
    if (alone && !this.coldIndexed) this.outlineLater.push(...batch);
    // A log not summarized yet that the saved index holds is sent with its saved stamp: the pool stats it and
    // answers `unchanged` when its files are as they were, and reads it otherwise.
    const saved = batch.map((e) => (e.stamp === null ? this.saved?.get(e.rel, e.base) : undefined));
    // The cold index leaves the search filters to a pass of their own once it is done (filler.ts): made with
    // each summary they cost it more than a third again.
    const filter = this.coldIndexed;
    const items: IndexItem[] = batch.map((e, i) => ({ key: e.key, rel: e.rel, path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog, known: e.stamp ?? saved[i]?.stamp ?? null, bigFrom, outlineTo, filter }));
    indexBatch(this.o.pool, items, stampNow)
      .then(
        // In turns: a log placed in the list moves the rows after it, so a batch of new logs costs more than its summaries.
        (results) =>
          this.inTurns(batch.length, (i, now) => {
            const r = results[i];
            if (r) this.applyRead(batch[i]!, r, saved[i], now, outlineTo);
          }),
        (err: unknown) => {
          const message = `the worker failed on this batch: ${errorText(err)}`;
          const now = performance.now();
          for (const e of batch) sessions.apply(e, stampNow(e), 0, { ok: false, message }, now);
        },
      )
      .then(() => {
        if (!this.coldIndexed) this.coldWaiters = this.coldWaiters.filter((w) => !w());
      })
      .finally(() => {
        this.inFlight--;
        for (const e of batch) this.reading.delete(e);
        if (alone) this.bigInFlight = false;
        this.pump();
        if (this.idle && !this.coldIndexed && this.everyLogQueued) this.finishCold();
        if (this.readWaiters.length) this.readWaiters = this.readWaiters.filter((w) => !w());
      });
  }

  /** What the pool found of a log read (`before`: its saved entry, sent as the stamp it knew). */
  private applyRead(e: SessionEntry, r: IndexResult, before: SavedEntry | undefined, now: number, outlineTo: string | undefined): void {
    const { sessions, outlines } = this.o;
    if (r.unchanged && e.stamp === null && before !== undefined) {
      this.saved?.delete(e.rel);
      sessions.apply(e, r.stamp, before.mtimeMs, before.result, now, { filter: before.filter });
      this.outlineIfBig(e, r.stamp);
    } else if (r.unchanged) sessions.confirm(e, now);
    else if ('big' in r) {
      if (!this.queued.has(e)) {
        this.queued.add(e);
        this.bigQueue.push(e);
      }
    } else {
      if (!this.coldIndexed) this.readFresh++;
      sessions.apply(e, r.stamp, r.mtimeMs, r.result, now, { announce: r.mtimeMs >= this.o.announceFrom, filter: r.filter ?? null });
      if (outlineTo !== undefined && r.outlineBytes !== undefined) {
        outlines.keep(e.path, r.stamp, outlineTo, r.outlineBytes);
        return;
      }
    }
    if (outlineTo !== undefined) outlines.discard(outlineTo);
  }

  private finishCold(): void {
    if (this.coldIndexed) return;
    this.coldIndexed = true;
    this.matchedSaved = this.saved !== null && this.saved.size === 0 && this.readFresh === 0 && !this.closed;
    this.builtFromSaved = this.saved !== null && this.readFresh * 10 <= this.o.sessions.size;
    this.saved = null;
    this.checked = null;
    // What the cold index read is announced as one change of everything it found (pages refresh once).
    this.o.sessions.trackChanges();
    if (this.announcedCount > 0) this.o.hub.publish('changed', { what: 'sessions', keys: [] });
    for (const w of this.coldWaiters.splice(0)) w();
    this.markColdIndexDone();
    this.outlining = this.writeOutlines();
  }

  /** Resolves once the cold index is done and the outlines it put off are written. */
  async outlined(): Promise<void> {
    await this.coldIndexDone;
    await this.outlining;
  }

  /** The outlines of the big logs the cold index read, one at a time (a 100 MB log's takes a worker ~1 s). */
  private async writeOutlines(): Promise<void> {
    const { sessions, spool, outlines, pool } = this.o;
    for (const e of this.outlineLater.splice(0)) {
      await this.o.putOff.turn();
      if (this.closed) return;
      if (sessions.byRel.get(e.rel) !== e || !e.readable || e.stamp === null) continue;
      const stamp = e.stamp;
      // A page that asked for this outline first made it, or is making it (data/session-views.ts).
      await outlines.beingMade(e.path, stamp);
      if (this.closed) return;
      if (outlines.find(e.path, stamp)) continue;
      const files = { key: e.key, rel: e.rel, path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog };
      // Kept only if the log is still as it was indexed: a later read writes its own.
      await outlines.make(
        e.path,
        stamp,
        (out) => pool.run('sessionOutlineFileTask', { files, out }, 'index').then((r) => (r.ok ? r.value : null)),
        () => !this.closed && sessions.byRel.get(e.rel) === e,
      );
    }
  }

  close(): void {
    this.closed = true;
    this.finishCold();
    this.readWaiters = this.readWaiters.filter((w) => !w());
  }
}

function rereadDelay(e: SessionEntry): number {
  return Math.min(REREAD_MAX_MS, e.size_bytes / REREAD_BYTES_PER_MS);
}
