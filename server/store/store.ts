// The console's one view of the data directory: which sessions and flows exist, under which keys, every
// session's summary, and the figures derived from them. Built at start, kept current by one watcher, read by
// every route and by the event stream, so a list never disagrees with the event that announced it.
//
// - Start: the newest logs are found from their names (head-scan.ts: the first page's, then more beside the
//   walk) and summarized first, while the tree is walked once in the worker pool (the event loop keeps
//   answering); the walk's logs then get their entries newest first, a slice per turn of the loop, and are
//   summarized in that order in batches, so the first page of the list answers while the rest is indexed
//   behind it (`progress()`). `opened` resolves with the first head (or the walk's first slice), `listed`
//   with the last.
// - Changes: the tree's notifications (tree.ts) say which directories and files moved. `sync()` applies
//   them at once (a request calls it, so what was written before the request is seen by it); the 1-second
//   tick applies them too, re-summarizes what changed in the pool, and publishes one `changed` event per
//   kind of thing. A log that keeps growing is re-read at most every `size / 10 MB/s` (at most 10 s).
// - A sweep re-stamps a few hundred logs per tick (the whole directory every few minutes at 100k), for
//   changes a notification missed (an overflowed inotify queue; a network mount); its stats run in the pool,
//   so it holds the event loop ~1 ms a tick.
// - The figures over every session (the overview's totals, days and domains, the savings, the servers'
//   session counts) are read from running sums the index keeps as sessions come and go (engine/tallies.ts),
//   a few hundred cells; what is derived from them is memoized per version of the index.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { deserialize } from 'node:v8';
import { StampCache } from '../data/cache.ts';
import type { FlowFacts } from '../data/registry.ts';
import { KeyedQueue } from '../data/keyed-queue.ts';
import type { Catalog, FlowFile } from '../data/catalog.ts';
import type { ListedTools } from '../data/flows.ts';
import type { LoadedFlow } from '../workers/tasks/flows.ts';
import type { SessionIndex as SessionOutlineIndex } from '../engine/session/views.ts';
import { assignKeys, RESERVED_FLOW_KEYS } from '../engine/keys.ts';
import type { Hub } from '../events/hub.ts';
import type { Pool } from '../workers/pool.ts';
import type { IndexItem } from '../workers/tasks/sessions.ts';
import { type FirstWalk, firstWalk, GROUP_START, HAS_CONFIRM_LOG, HAS_FLOW_LOG, logAt, namesOf } from './first-walk.ts';
import { DetailCache } from './detail-cache.ts';
import { Spool } from './spool.ts';
import { stampNow } from './stamp.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { indexBatch } from './index-batch.ts';
import { compareRel, type NewLog, type SessionEntry, SessionIndex } from './session-index.ts';
import { DataTree, noticesIn, type TreeChanges, type TreeFile } from './tree.ts';
import { errorText } from '../../shared/error-text.ts';

const TICK_MS = 1_000;
/** Logs re-stamped per tick by the sweep. */
const SWEEP_PER_TICK = 400;
/** Batches of the cold index: small first (the first page sooner), then larger (less overhead). */
const FIRST_BATCH = 64;
/**
 * Logs found from their names before the walk is in (head-scan.ts), in two looks: the first page's
 * (FIRST_BATCH: a small head is found ~70 ms sooner by a worker that has just started), then this many,
 * beside the walk, to keep one core reading while the other walks (the walk of 160k files takes ~0.5 s; a
 * core reads ~8k logs a second).
 */
const HEAD_LOGS = 2_048;
/**
 * A log this big is summarized alone, one at a time, while the other threads go on with small batches: a
 * 100 MB log takes a worker half a second, and the first page must not wait behind it.
 */
const BIG_LOG_BYTES = 8 * 1024 * 1024;
/** The outlines of big logs kept in the spool, in bytes (a 100 MB log's is about 0.5 MB). */
const BIG_OUTLINE_BYTES = 128 * 1024 * 1024;
/** Logs given their entries per turn of the event loop while the first walk is listed. */
const LIST_SLICE = 1_000;
const BATCH = 1_000;
/** A growing log is read again at most this often per byte: 10 MB a second, at most every 10 s. */
const REREAD_BYTES_PER_MS = 10_000;
const REREAD_MAX_MS = 10_000;
/** In a polled directory, a log unchanged for this long is stamped only every QUIET_EVERY_TICKS ticks. */
const QUIET_MS = 10 * 60_000;
const QUIET_EVERY_TICKS = 10;

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
  /** Logs listed per turn of the event loop at start (tests make it small). */
  listSlice?: number;
  /** Logs of this size and more are summarized alone (BIG_LOG_BYTES; tests make it small). */
  bigLogBytes?: number;
}

export class Store {
  readonly tree: DataTree;
  /** No changes are kept while the cold index runs: it is announced as one change of everything (finishCold). */
  readonly sessions = new SessionIndex({ trackChanges: false });
  readonly details: DetailCache;
  /** Scratch files: details, outlines of big sessions (spool.ts). */
  readonly spool = new Spool();
  /**
   * The session page's outlines of big logs, made when they were indexed (they are read alone anyway), by log
   * path: a 100 MB log's page then opens without a second pass over it (data/session-views.ts).
   */
  readonly bigOutlines = new Map<string, { stamp: string; file: string; bytes: number }>();
  private bigOutlineBytes = 0;
  /** The session page's outlines of the last few sessions opened, by log path (data/session-views.ts). */
  readonly outlines = new Map<string, { stamp: string; index: Promise<SessionOutlineIndex> }>();
  /** Commits and rollbacks, one at a time per deployment (data/stage.ts). */
  readonly stageQueue = new KeyedQueue();
  /** Parsed files by path and stamp, for the flows area (data/flows.ts). */
  readonly caches = {
    /** Flow files as loaded in the pool. */
    flows: new StampCache<LoadedFlow>(),
    /** The tools each session listed: a flow page refreshes often, its session rarely changes. */
    listings: new StampCache<ListedTools>(),
    /** What the registry needs of each server's flow file (data/server-context.ts), by its path. */
    serverFlows: new StampCache<FlowFacts>(),
    /** By session log: the line that shows the flow's first decision at each site (data/flow-evidence-lines.ts). */
    decisionLines: new StampCache<Map<string, number | null>>(),
  };
  private flowFiles: FlowFile[] = [];
  private flowByKey = new Map<string, FlowFile>();
  private readonly pool: Pool;
  private readonly hub: Hub;
  private readonly listSliceSize: number;
  private readonly bigLogBytes: number;
  /** Logs waiting to be (re)indexed, in the order they will be. */
  private readonly queue: SessionEntry[] = [];
  private readonly queued = new Set<SessionEntry>();
  /** Big logs waiting to be read alone (BIG_LOG_BYTES). */
  private readonly bigQueue: SessionEntry[] = [];
  /** Big logs the cold index read without their outline: it is written once the index is done. */
  private readonly outlineLater: SessionEntry[] = [];
  private outlining: Promise<void> = Promise.resolve();
  private bigInFlight = false;
  /** Growing logs waiting for their next read. */
  private readonly deferred = new Set<SessionEntry>();
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private coldDone = false;
  /** The cold index has queued every log found at start (until then an empty queue is not the end). */
  private coldQueued = false;
  /** Files found after the first walk are indexed as they come. */
  private walked = false;
  /** Waiting for the cold index (or for enough of it): each answers whether it is done waiting. */
  private coldWaiters: (() => boolean)[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** The sweep's snapshot of the entries, its place in it, and whether a part of it is being stamped. */
  private sweepList: SessionEntry[] = [];
  private sweepAt = 0;
  private sweeping = false;
  private flowsChanged = new Set<string>();
  private catalogMemo: { version: number; flowsVersion: number; catalog: Catalog } | null = null;
  private flowsVersion = 0;
  private memo = new Map<string, { version: number; value: unknown }>();
  private closed = false;
  private announcedIndexed = 0;
  /** While the first walk's logs are being listed: how many it found (the progress's total). */
  private expected = 0;
  private pollRound = 0;

  constructor(options: StoreOptions) {
    this.pool = options.pool;
    this.hub = options.hub;
    this.tree = new DataTree(options.dataDir, options.watch ?? true);
    this.details = new DetailCache(options.pool, this.spool);
    this.listSliceSize = options.listSlice ?? LIST_SLICE;
    this.bigLogBytes = options.bigLogBytes ?? BIG_LOG_BYTES;
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
  private markIndexed: () => void = () => {};
  /** Resolves once the cold index is done (every log found at start summarized), or the store is closed. */
  readonly indexed = new Promise<void>((resolve) => {
    this.markIndexed = resolve;
  });

  /**
   * The newest logs are found from their names (head-scan.ts) and queued at once, while the first walk runs in
   * the pool; then the walk's logs get their entries newest first, a slice per turn of the event loop, each
   * slice queued for indexing as it comes, so the first page is read while the rest is listed; then the tree
   * is adopted. Resolves when every log is listed (indexing goes on).
   */
  async open(): Promise<void> {
    try {
      if (this.closed) return;
      // The first page's logs by name first (a small head is found sooner), queued at once; then the walk on
      // one worker while the other reads a larger head (it keeps a core reading until the walk is in).
      const first = await this.pool.run('newestLogsTask', { root: this.tree.root, count: FIRST_BATCH }).catch(() => null);
      if (this.closed) return;
      if (first) {
        this.expected = first.found;
        this.listSlice(first.logs);
        this.markOpened();
      }
      const walking = this.walk();
      const more = first ? await this.pool.run('newestLogsTask', { root: this.tree.root, count: HEAD_LOGS }).catch(() => null) : null;
      if (this.closed) return;
      if (more) this.listSlice(more.logs);
      const head = first ? new Map([...first.logs, ...(more?.logs ?? [])].map((log) => [log.rel, log])) : null;
      const walk = await walking;
      if (walk === null || this.closed) return;
      this.expected = walk.flags.length;
      const names = namesOf(walk);
      const slices = this.slicesOf(walk, names);
      // Without a head, the walk's first slice goes to the pool before anything else.
      if (!head) this.listSlice(slices.next().value ?? []);
      this.markOpened();
      // Every log is queued before the tree is adopted: the pool reads while the event loop adopts it (what
      // changes meanwhile moves its directory's stamp, which adopt compares with the walk's).
      for (const slice of slices) {
        if (this.closed) return;
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.listSlice(slice);
      }
      await this.tree.adopt(walk.dirs, names);
      this.rebuildFlows();
      if (head) this.reconcileHead([...head.values()]);
      this.walked = true;
      // What changed since the walk (its directories' stamps moved) is seen from here on.
      this.applyTree(this.tree.refresh(false, false));
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
      this.coldQueued = true;
      this.pump();
      if (this.idle) this.finishCold();
    } finally {
      this.expected = 0;
      this.markOpened();
      this.markListed();
    }
  }

  /**
   * The first walk, in the pool, read back from the spool; walked here if the pool cannot run it, unless the
   * store was closed meanwhile (null: a closing console does not walk 160k files on its event loop).
   */
  private async walk(): Promise<FirstWalk | null> {
    const out = this.spool.file('walk');
    try {
      await this.pool.run('walkTreeTask', { root: this.tree.root, out });
      return deserialize(await readFile(out)) as FirstWalk;
    } catch {
      return this.closed ? null : firstWalk(this.tree.root);
    } finally {
      this.spool.remove(out);
    }
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
        if (e.stamp !== null) this.enqueue(e, false);
      }
    }
  }

  /**
   * The walked logs in slices of about LIST_SLICE, cut between key groups (the walk puts a group's logs
   * together), so a key once shown never changes when an older log of the same stem is listed after it.
   */
  private *slicesOf(walk: FirstWalk, names: readonly (readonly string[])[]): Generator<NewLog[]> {
    let slice: NewLog[] = [];
    for (let i = 0; i < walk.flags.length; i++) {
      const f = walk.flags[i]!;
      if (f & GROUP_START && slice.length >= this.listSliceSize) {
        yield slice;
        slice = [];
      }
      const { name, rel } = logAt(walk, names, i);
      slice.push({ rel, name, flowLog: (f & HAS_FLOW_LOG) !== 0, confirmLog: (f & HAS_CONFIRM_LOG) !== 0 });
    }
    if (slice.length) yield slice;
  }

  private listSlice(logs: readonly NewLog[]): void {
    for (const e of this.sessions.add(this.tree.root, logs)) this.enqueue(e, false);
    this.pump();
  }

  close(): void {
    this.closed = true;
    this.markOpened();
    if (this.timer) clearInterval(this.timer);
    this.tree.close();
    this.spool.close();
    this.finishCold();
    for (const w of this.idleWaiters.splice(0)) w();
  }

  get version(): number {
    return this.sessions.version * 1_000_003 + this.flowsVersion;
  }

  progress(): Progress | null {
    if (this.coldDone) return null;
    return { indexed: this.sessions.indexed, total: Math.max(this.expected, this.sessions.size) };
  }

  /**
   * Wait until the cold index is done, or `budgetMs` passed: a small directory answers complete, a big one
   * answers what it has so far (with `progress()`).
   */
  async warm(budgetMs: number, enough: (indexed: number) => boolean = () => false): Promise<void> {
    await this.opened;
    if (this.coldDone || enough(this.sessions.indexed)) return;
    await new Promise<void>((resolve) => {
      const waiter = (): boolean => {
        if (!this.coldDone && !enough(this.sessions.indexed)) return false;
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

  /**
   * Apply what the tree knows now, and wait (at most `budgetMs`) for the logs it touched to be summarized:
   * a request sees what was written before it was made.
   */
  async sync(budgetMs = 2_000): Promise<void> {
    await this.opened;
    await noticesIn();
    if (this.walked) this.applyTree(this.tree.refresh(true, false));
    if (!this.coldDone || this.idle) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, budgetMs);
      this.idleWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
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

  /** The catalog as the data layer reads it: sessions and flows by key (no copy per request). */
  catalog(): Catalog {
    const memo = this.catalogMemo;
    if (memo && memo.version === this.sessions.version && memo.flowsVersion === this.flowsVersion) return memo.catalog;
    const sessions = this.sessions;
    const flows = this.flowFiles;
    const flowByKey = this.flowByKey;
    let all: SessionEntry[] | null = null;
    const catalog: Catalog = {
      get sessions() {
        all ??= [...sessions.byRel.values()].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
        return all;
      },
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
    this.catalogMemo = { version: sessions.version, flowsVersion: this.flowsVersion, catalog };
    return catalog;
  }

  /** Apply what changed now rather than at the next tick (the console's own moves and writes among it). */
  async touched(): Promise<void> {
    await noticesIn();
    if (this.walked) this.applyTree(this.tree.refresh(true, false));
  }

  // -------------------------------------------------------------------------------------------------------

  private tick(): void {
    if (this.closed || !this.walked) return;
    try {
      this.applyTree(this.tree.refresh());
      this.sweep();
      const now = performance.now();
      for (const e of [...this.deferred]) {
        if (now >= e.indexedAt + rereadDelay(e)) {
          this.deferred.delete(e);
          this.enqueue(e, false);
        }
      }
      this.pump();
      this.publish();
    } catch (err) {
      process.stderr.write(`engine-console: the data directory watch failed once: ${errorText(err)}\n`);
    }
  }

  private publish(): void {
    if (!this.coldDone) {
      // While the cold index runs, pages that show its progress refresh each second; no keys are listed.
      if (this.sessions.indexed !== this.announcedIndexed) {
        this.announcedIndexed = this.sessions.indexed;
        this.hub.publish('changed', { what: 'sessions', keys: [] });
      }
      return;
    }
    const keys = this.sessions.drainChanged();
    if (keys.length) this.hub.publish('changed', { what: 'sessions', keys });
    // Flow changes are announced by the flows watch (events/watch.ts), which also sees the stage files.
    this.flowsChanged.clear();
  }

  /**
   * Re-stamp the next SWEEP_PER_TICK logs in the pool (done here, their stats held the event loop some 20 ms
   * a tick at 100k), one part at a time, over a snapshot of the entries taken when the last one ended.
   */
  private sweep(): void {
    if (!this.coldDone || this.sweeping) return;
    if (this.sweepAt >= this.sweepList.length) {
      this.sweepList = [...this.sessions.byRel.values()];
      this.sweepAt = 0;
    }
    const part = this.sweepList.slice(this.sweepAt, this.sweepAt + SWEEP_PER_TICK);
    this.sweepAt += part.length;
    if (part.length === 0) return;
    this.sweeping = true;
    void this.pool
      .run('stampTask', part.map((e) => ({ path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog })))
      .then((stamps) => {
        part.forEach((e, i) => {
          if (stamps[i] !== e.stamp && e.stamp !== null && !this.closed && this.sessions.byRel.get(e.rel) === e) this.enqueue(e, false);
        });
        this.pump();
      })
      .catch(() => {})
      .finally(() => {
        this.sweeping = false;
      });
  }

  private applyTree(changes: TreeChanges): void {
    if (changes.removed.length) this.removeFiles(changes.removed);
    if (changes.added.length) this.addFiles(changes.added);
    for (const f of changes.touched) {
      if (f.kind === 'session') {
        const e = this.sessions.byRel.get(f.rel);
        if (e) this.touchEntry(e);
      } else if (f.kind === 'flowlog' || f.kind === 'confirmlog') {
        const e = this.sessions.byRel.get(ownerRel(f));
        if (e) this.touchEntry(e);
      } else if (f.kind === 'flow') {
        this.flowsChanged.add(f.rel);
      }
    }
    // Polled directories: stat here, and a log quiet for ten minutes only every tenth second.
    const nowMs = Date.now();
    this.pollRound = (this.pollRound + 1) % QUIET_EVERY_TICKS;
    for (const f of changes.polled) {
      const rel = f.kind === 'flowlog' || f.kind === 'confirmlog' ? ownerRel(f) : f.kind === 'session' ? f.rel : null;
      const e = rel === null ? undefined : this.sessions.byRel.get(rel);
      if (!e || e.stamp === null || this.queued.has(e)) continue;
      if (nowMs - e.mtimeMs > QUIET_MS && this.pollRound !== 0) continue;
      if (stampNow(e) !== e.stamp) this.touchEntry(e);
    }
  }

  private touchEntry(e: SessionEntry): void {
    if (e.stamp === null || this.queued.has(e)) return; // not indexed yet: it will be
    if (performance.now() < e.indexedAt + rereadDelay(e)) this.deferred.add(e);
    else this.enqueue(e, false);
  }

  private addFiles(files: readonly TreeFile[]): void {
    const logs: TreeFile[] = [];
    let flows = false;
    for (const f of files) {
      if (f.kind === 'session') logs.push(f);
      else if (f.kind === 'flow') flows = true;
    }
    const added = this.addLogs(logs);
    // Companions that arrived beside a log already indexed.
    for (const f of files) {
      if (f.kind !== 'flowlog' && f.kind !== 'confirmlog') continue;
      const e = this.sessions.setCompanion(ownerRel(f), f.kind === 'flowlog' ? 'hasFlowLog' : 'hasConfirmLog', true);
      if (e && e.stamp !== null) this.enqueue(e, false);
    }
    if (this.walked) for (const e of added) this.enqueue(e, true);
    if (flows) this.rebuildFlows();
  }

  /** Entries for these logs, with their companions as the tree has them now. */
  private addLogs(logs: readonly TreeFile[]): SessionEntry[] {
    const companion = (f: TreeFile, suffix: string) => this.tree.hasFile(f.rel.slice(0, -'.jsonl'.length) + suffix);
    return this.sessions.add(
      this.tree.root,
      logs.map((f) => ({ rel: f.rel, name: f.name, flowLog: companion(f, '.flow.jsonl'), confirmLog: companion(f, '.confirm.jsonl') })),
    );
  }

  private removeFiles(files: readonly TreeFile[]): void {
    let flows = false;
    for (const f of files) {
      if (f.kind === 'session') {
        const e = this.sessions.remove(f.rel);
        this.dropOutline(this.tree.pathOf(f.rel));
        if (e) {
          this.queued.delete(e);
          this.deferred.delete(e);
        }
      } else if (f.kind === 'flowlog' || f.kind === 'confirmlog') {
        const e = this.sessions.setCompanion(ownerRel(f), f.kind === 'flowlog' ? 'hasFlowLog' : 'hasConfirmLog', false);
        if (e && e.stamp !== null) this.enqueue(e, false);
      } else if (f.kind === 'flow') flows = true;
    }
    if (flows) this.rebuildFlows();
  }

  private rebuildFlows(): void {
    const found = [...this.tree.allFiles('flow')].sort((a, b) => compareRel(a.rel, b.rel));
    const keys = assignKeys(
      found.map((f) => ({ stem: f.name.slice(0, -'.flow.json'.length), rel: f.rel })),
      RESERVED_FLOW_KEYS,
    );
    this.flowFiles = found.map((f, i) => ({ key: keys[i]!, rel: f.rel, path: this.tree.pathOf(f.rel) }));
    this.flowByKey = new Map(this.flowFiles.map((f) => [f.key, f]));
    this.flowsVersion++;
  }

  private enqueue(e: SessionEntry, fresh: boolean): void {
    if (this.queued.has(e)) return;
    this.queued.add(e);
    // New logs go first: they are what a person who just ran an agent is looking for.
    if (fresh) this.queue.unshift(e);
    else this.queue.push(e);
  }

  /** Nothing queued or being read. */
  private get idle(): boolean {
    return this.queue.length === 0 && this.bigQueue.length === 0 && this.inFlight === 0;
  }

  /**
   * Summarize queued logs in the pool, at most two batches per thread at a time (so a thread that ends one
   * starts the next at once, while this loop takes in the answers): small logs in batches, a big one alone
   * while another thread takes the small ones.
   */
  private pump(): void {
    while (!this.closed && this.inFlight < this.pool.threads * 2) {
      const bigReady = this.bigQueue.length > 0 && !this.bigInFlight;
      if (bigReady && (this.queue.length === 0 || this.inFlight > 0)) {
        this.bigInFlight = true;
        this.read(this.bigQueue.splice(0, 1), undefined);
      } else if (this.queue.length > 0) {
        const size = this.sessions.indexed === 0 ? FIRST_BATCH : BATCH;
        this.read(this.queue.splice(0, size), this.bigLogBytes);
      } else break;
    }
  }

  private read(batch: SessionEntry[], bigFrom: number | undefined): void {
    for (const e of batch) this.queued.delete(e);
    this.inFlight++;
    const alone = bigFrom === undefined;
    // During the cold index a big log's outline waits (writeOutlines): the list comes first.
    const outlineTo = alone && this.coldDone ? this.spool.file('outline.json') : undefined;
    if (alone && !this.coldDone) this.outlineLater.push(...batch);
    const items: IndexItem[] = batch.map((e) => ({ key: e.key, rel: e.rel, path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog, known: e.stamp, bigFrom, outlineTo }));
    indexBatch(this.pool, items, stampNow)
      .then(
        (results) => {
          const now = performance.now();
          batch.forEach((e, i) => {
            const r = results[i];
            if (!r) return;
            if (r.unchanged) this.sessions.confirm(e, now);
            else if ('big' in r) {
              if (!this.queued.has(e)) {
                this.queued.add(e);
                this.bigQueue.push(e);
              }
            } else {
              this.sessions.apply(e, r.stamp, r.mtimeMs, r.result, now);
              if (outlineTo !== undefined && r.outlineBytes !== undefined) {
                this.keepOutline(e.path, r.stamp, outlineTo, r.outlineBytes);
                return;
              }
            }
            if (outlineTo !== undefined) this.spool.remove(outlineTo);
          });
        },
        (err: unknown) => {
          const message = `the worker failed on this batch: ${errorText(err)}`;
          const now = performance.now();
          for (const e of batch) this.sessions.apply(e, stampNow(e), 0, { ok: false, message }, now);
        },
      )
      .then(() => {
        if (!this.coldDone) this.coldWaiters = this.coldWaiters.filter((w) => !w());
      })
      .finally(() => {
        this.inFlight--;
        if (alone) this.bigInFlight = false;
        this.pump();
        if (this.idle) {
          if (!this.coldDone && this.coldQueued) this.finishCold();
          for (const w of this.idleWaiters.splice(0)) w();
        }
      });
  }

  private keepOutline(path: string, stamp: string, file: string, bytes: number): void {
    this.dropOutline(path);
    this.bigOutlines.set(path, { stamp, file, bytes });
    this.bigOutlineBytes += bytes;
    for (const old of [...this.bigOutlines.keys()]) {
      if (this.bigOutlineBytes <= BIG_OUTLINE_BYTES || old === path) break;
      this.dropOutline(old);
    }
  }

  private dropOutline(path: string): void {
    const held = this.bigOutlines.get(path);
    if (!held) return;
    this.bigOutlines.delete(path);
    this.bigOutlineBytes -= held.bytes;
    this.spool.remove(held.file);
  }

  private finishCold(): void {
    if (this.coldDone) return;
    this.coldDone = true;
    // What the cold index read is announced as one change of everything it found (pages refresh once).
    this.sessions.trackChanges();
    if (this.announcedIndexed > 0) this.hub.publish('changed', { what: 'sessions', keys: [] });
    for (const w of this.coldWaiters.splice(0)) w();
    this.markIndexed();
    this.outlining = this.writeOutlines();
  }

  /** Resolves once the cold index is done and the outlines it put off are written. */
  async outlined(): Promise<void> {
    await this.indexed;
    await this.outlining;
  }

  /** The outlines of the big logs the cold index read, one at a time (a 100 MB log's takes a worker ~1 s). */
  private async writeOutlines(): Promise<void> {
    for (const e of this.outlineLater.splice(0)) {
      if (this.closed) return;
      if (this.sessions.byRel.get(e.rel) !== e || e.summary === null || this.bigOutlines.get(e.path)?.stamp === e.stamp) continue;
      const out = this.spool.file('outline.json');
      const r = await this.pool.run('sessionOutlineFileTask', { files: { key: e.key, rel: e.rel, path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog }, out }).catch(() => null);
      // Kept only if the log is still as it was indexed: a later read writes its own.
      if (r?.ok && !this.closed && r.value.stamp === e.stamp && this.sessions.byRel.get(e.rel) === e) this.keepOutline(e.path, e.stamp, out, r.value.bytes);
      else this.spool.remove(out);
    }
  }
}

/** The session log a companion belongs to. */
function ownerRel(f: TreeFile): string {
  const suffix = f.kind === 'flowlog' ? '.flow.jsonl' : '.confirm.jsonl';
  return `${f.rel.slice(0, -suffix.length)}.jsonl`;
}

function rereadDelay(e: SessionEntry): number {
  return Math.min(REREAD_MAX_MS, (e.summary?.size_bytes ?? 0) / REREAD_BYTES_PER_MS);
}

function canonicalOf(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
