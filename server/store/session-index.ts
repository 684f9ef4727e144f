// Every session log in reach, by relative path and by key, with its summary, kept in the list's order
// (newest first) as summaries arrive, so a page of the list costs the page, and a filter the sessions it
// looks at, never a sort or a stat of the whole directory.
//
// Keys follow console-api.md §3.1: they depend only on the files that share a key base, so a file that comes
// or goes re-keys its own group and nothing else. Summaries are rows of columns (summary-columns.ts), not
// objects: an entry holds its paths, key and stamp, and a summary object is made only for what an answer
// sends, so a million sessions fit the memory target.
import type { SessionMode, SessionSiteCount, SessionsQuery, SessionSums, SessionSummary } from '../../shared/sessions.ts';
import { assignKeys, keyBase, RESERVED_SESSION_KEYS } from '../engine/keys.ts';
import { sessionComparator, startedWithin, sumsOf, traitsPredicate } from '../engine/session-filter.ts';
import type { IndexedSummary } from '../engine/sessions.ts';
import { Tallies, type TallyCell } from '../engine/tallies.ts';
import { DAY_MS } from '../../shared/limits.ts';
import type { SessionFile } from './catalog.ts';
import { KeyedMap } from './keyed-map.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { RowOrder } from './row-order.ts';
import { type FilterArena, MemoryFilters } from './search-filters.ts';
import { CONFIRM_LOG_BESIDE, FLOW_LOG_BESIDE, type SharedValueIds, type SharedValues, SummaryColumns, type SummaryFigures, type SummaryRow } from './summary-columns.ts';
import { NONE } from './value-table.ts';

/** A removed entry's last figures: its row may be another log's by then. */
interface Detached {
  summary: SessionSummary | null;
  tools: readonly string[];
  shadowDecisions: number;
  flowSites: readonly SessionSiteCount[] | null;
  mtimeMs: number;
  indexedAt: number;
  error: string | null;
}

const NO_TOOLS: readonly string[] = Object.freeze([]);

/**
 * One session log in the index: where it is and under which key; its summary and figures are its row in the
 * index's columns (summary-columns.ts), read through getters. Its absolute paths are made when asked.
 */
/** What removed entries showed (their rows are other logs' by then): rare, so kept beside them, not in each. */
const detachedEntries = new WeakMap<SessionEntry, Detached>();

export class SessionEntry implements SessionFile {
  key = '';
  /** The stamps the summary was made from (`log|flow log|confirm log`); null before the first index. */
  stamp: string | null = null;

  constructor(
    private readonly cols: SummaryColumns,
    /** Its row in the columns; -1 once removed (what it showed is kept aside then). */
    private at: number,
    /** The data directory. */
    readonly root: string,
    readonly rel: string,
    readonly base: string,
  ) {}

  get row(): number {
    return this.at;
  }

  /** Still in its index: false once removed (what it is told then is dropped). */
  get inIndex(): boolean {
    return this.at >= 0;
  }

  get hasFlowLog(): boolean {
    return this.at >= 0 && this.cols.companion(this.at, FLOW_LOG_BESIDE);
  }

  set hasFlowLog(there: boolean) {
    if (this.at >= 0) this.cols.setCompanion(this.at, FLOW_LOG_BESIDE, there);
  }

  get hasConfirmLog(): boolean {
    return this.at >= 0 && this.cols.companion(this.at, CONFIRM_LOG_BESIDE);
  }

  set hasConfirmLog(there: boolean) {
    if (this.at >= 0) this.cols.setCompanion(this.at, CONFIRM_LOG_BESIDE, there);
  }

  /** Why the log is not a session log this engine can read (null when it reads, or before the first index). */
  get error(): string | null {
    return this.at >= 0 ? this.cols.error(this.at) : (detachedEntries.get(this)?.error ?? null);
  }

  private get detached(): Detached | null {
    return this.at >= 0 ? null : detachedEntries.get(this)!;
  }

  get path(): string {
    return `${this.root}/${this.rel}`;
  }

  get flowLog(): string | null {
    return this.hasFlowLog ? `${this.root}/${this.rel.slice(0, -JSONL.length)}${FLOW_LOG}` : null;
  }

  get confirmLog(): string | null {
    return this.hasConfirmLog ? `${this.root}/${this.rel.slice(0, -JSONL.length)}${CONFIRM_LOG}` : null;
  }

  /** Whether its log reads (it has a summary). */
  get readable(): boolean {
    return this.detached === null ? this.cols.readable(this.row) : this.detached.summary !== null;
  }

  /** Its wire summary, made when asked (null when its log does not read, or before the first index). */
  get summary(): SessionSummary | null {
    if (this.detached !== null) return this.detached.summary;
    return this.cols.readable(this.row) ? this.cols.summary(this.row, this.key, this.rel, this.base) : null;
  }

  // The summary's fields the views over every session read, under its names, read in place.
  get session_id(): string {
    return this.detached === null ? this.cols.sessionId(this.row, this.base) : (this.detached.summary?.session_id ?? this.base);
  }

  /** Its session's start (0 without a summary). */
  get started_unix_ms(): number {
    return this.detached === null ? this.cols.started(this.row) : (this.detached.summary?.started_unix_ms ?? 0);
  }

  get domain(): string | null {
    return this.detached === null ? this.cols.domain(this.row) : (this.detached.summary?.domain ?? null);
  }

  /** Null without a summary. */
  get mode(): SessionMode | null {
    if (this.detached !== null) return this.detached.summary?.mode ?? null;
    return this.cols.readable(this.row) ? this.cols.mode(this.row) : null;
  }

  /** The log's size when summarized (0 without a summary). */
  get size_bytes(): number {
    return this.detached === null ? this.cols.sizeBytes(this.row) : (this.detached.summary?.size_bytes ?? 0);
  }

  /** The names of the tools called (one shared list per distinct set). */
  get tools(): readonly string[] {
    return this.detached === null ? this.cols.toolsCalled(this.row) : this.detached.tools;
  }

  /** Decisions the flow log holds in shadow (lookups and hand-backs). */
  get shadowDecisions(): number {
    return this.detached === null ? this.cols.shadowDecisions(this.row) : this.detached.shadowDecisions;
  }

  /** What the flow log shows per site (a flow's evidence reads it); null without a decision. */
  get flowSites(): readonly SessionSiteCount[] | null {
    return this.detached === null ? this.cols.flowSites(this.row) : this.detached.flowSites;
  }

  /** The log's mtime when it was last summarized. */
  get mtimeMs(): number {
    return this.detached === null ? this.cols.mtimeMs(this.row) : this.detached.mtimeMs;
  }

  /** When it was last summarized (ms, process clock): a log that keeps growing is re-read at a measured pace. */
  get indexedAt(): number {
    return this.detached === null ? this.cols.indexedAt(this.row) : this.detached.indexedAt;
  }

  /** Its search filter's slot in the index's arena (search-filters.ts); -1 for none. */
  get filterSlot(): number {
    return this.detached === null ? this.cols.filterSlot(this.row) : -1;
  }

  /**
   * Its summary's figures, their shared values as ids of its index's tables (SessionIndex.values), into `f`;
   * false (and `f` left as it was) when it has no summary in its index: unreadable, or removed.
   */
  readFigures(f: SummaryFigures): boolean {
    if (this.at < 0 || !this.cols.readable(this.at)) return false;
    this.cols.readFigures(this.at, f, this.base);
    return true;
  }

  /** Removed from its index: keep what it showed, as its row goes to another log. */
  detach(): void {
    if (this.at < 0) return;
    const { summary, tools, shadowDecisions, flowSites, mtimeMs, indexedAt, error } = this;
    detachedEntries.set(this, { summary, tools, shadowDecisions, flowSites, mtimeMs, indexedAt, error });
    this.at = -1;
  }
}

/** An entry whose log reads: it has a summary (the list holds only these). */
export type ReadableEntry = SessionEntry & { readonly summary: SessionSummary };

/** A log to add: where it is, and whether its companions are beside it. */
export interface NewLog {
  rel: string;
  name: string;
  flowLog: boolean;
  confirmLog: boolean;
}

/**
 * The entries by their logs' paths, read through the keys: a log alone on its key base is keyed by that base,
 * and the others are in their base's group, so no map by path is kept (a million paths' map was ~30 MB and
 * its growth a pause of the event loop).
 */
export class EntriesByPath {
  constructor(
    private readonly byKey: KeyedMap<SessionEntry>,
    private readonly groups: ReadonlyMap<string, readonly SessionEntry[]>,
  ) {}

  get(rel: string): SessionEntry | undefined {
    if (!rel.endsWith(JSONL)) return undefined;
    const base = keyBase(rel.slice(rel.lastIndexOf('/') + 1, rel.length - JSONL.length));
    const group = this.groups.get(base);
    const e = group === undefined ? this.byKey.get(base) : group.find((g) => g.rel === rel);
    return e !== undefined && e.rel === rel ? e : undefined;
  }

  has(rel: string): boolean {
    return this.get(rel) !== undefined;
  }

  /** How many entries the index holds: each is under a key of its own (but while `add` keys a group). */
  get size(): number {
    return this.byKey.size;
  }

  /** Every entry (each is keyed, but while `add` keys a group). */
  values(): IterableIterator<SessionEntry> {
    return this.byKey.values();
  }

  /** Every entry, in an array of its own (a snapshot). */
  all(): SessionEntry[] {
    return this.byKey.valuesArray();
  }

  keys(): IterableIterator<string> {
    return this.all().map((e) => e.rel).values();
  }
}

/** Entries placed in one merge from this many on (fewer are each spliced in: a merge copies the whole list). */
const MERGE_FROM = 32;

export class SessionIndex {
  readonly byKey = new KeyedMap<SessionEntry>();
  /**
   * Entries by key base, for the bases several logs share (or a reserved one): a log with a stem of its own
   * is keyed by its base and found by it in `byKey` (no key with a `~` is ever a base).
   */
  private readonly groups = new Map<string, SessionEntry[]>();
  readonly byRel = new EntriesByPath(this.byKey, this.groups);
  private readonly cols = new SummaryColumns();
  /** The values behind the ids readFigures gives. */
  readonly values: SharedValues = this.cols;
  /** Readable sessions, newest first. */
  private readonly sorted: ReadableEntry[] = [];
  /** While `placing`: readable entries to merge into `sorted` at its end. */
  private toPlace: Set<ReadableEntry> | null = null;
  /** Their rows, in the same order: the filters read these. */
  private readonly order = new RowOrder();
  /** Two views of rows: the tallies' and the list's filters' (a filter may run while the tallies look). */
  private readonly tallyRow = this.cols.view();
  private readonly listRow = this.cols.view();
  /** The readable sessions' running sums (the overview, savings, servers' counts read them). */
  readonly tallies = new Tallies((cell) => this.newestIn(cell));
  /** Entries whose log does not read. */
  private readonly failing = new Set<SessionEntry>();
  /** The sessions' search filters, by their entries' `filterSlot`. */
  readonly filters: FilterArena;
  /** Bumped on every change a reader could see. */
  version = 0;
  /** Keys added, removed, re-keyed or re-summarized since the last drain (for `changed` events). */
  private readonly changed = new Set<string>();
  /** Logs summarized at least once (the cold index's count; `Progress.indexed` on the wire). */
  summarizedCount = 0;
  /** Logs ever added (removed ones too): a lister that added all of them knows no other log is listed. */
  addedCount = 0;

  get size(): number {
    return this.byRel.size;
  }

  /** Readable sessions, newest first (shared: do not change). */
  get readable(): readonly ReadableEntry[] {
    return this.sorted;
  }

  /** Take the keys that changed since the last call. */
  drainChanged(): string[] {
    const keys = [...this.changed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.changed.clear();
    return keys;
  }

  /**
   * Whether changes are kept for drainChanged. A store keeps none while its cold index runs: that is
   * announced as one change of everything.
   */
  private tracking: boolean;

  /** From how many entries `placing` merges them in at once (MERGE_FROM; a test sets it to reach both ways). */
  private readonly mergeFrom: number;

  /** `filters`: where the search filters are kept (in memory unless given). */
  constructor(options: { trackChanges?: boolean; filters?: FilterArena; mergeFrom?: number } = {}) {
    this.tracking = options.trackChanges ?? true;
    this.filters = options.filters ?? new MemoryFilters();
    this.mergeFrom = options.mergeFrom ?? MERGE_FROM;
  }

  /** Keep the changes from here on (those before are not kept). */
  trackChanges(): void {
    this.tracking = true;
  }

  private note(key: string): void {
    if (this.tracking) this.changed.add(key);
  }

  /** Room for `count` more logs at once (their rows), rather than growing as they come. */
  reserve(count: number): void {
    this.cols.reserve(count);
  }

  /** Add logs (with whether their companions are there): keys are assigned per group once all are in. */
  add(root: string, files: readonly NewLog[]): SessionEntry[] {
    const out: SessionEntry[] = [];
    let grown: Set<string> | null = null;
    for (const f of files) {
      if (this.byRel.has(f.rel)) continue;
      const entry = this.addLog(root, f.rel, f.name.slice(0, -JSONL.length), f.flowLog, f.confirmLog);
      out.push(entry);
      if (entry.key === '') (grown ??= new Set()).add(entry.base);
    }
    if (grown !== null) for (const base of grown) this.rekey(this.groups.get(base)!);
    if (out.length) this.version++;
    return out;
  }

  /** Add one log not listed yet (`byRel` does not have it), keyed at once: a saved index's, listed as its check comes. */
  addUnlisted(root: string, rel: string, flowLog: boolean, confirmLog: boolean): SessionEntry {
    const entry = this.addLog(root, rel, rel.slice(rel.lastIndexOf('/') + 1, rel.length - JSONL.length), flowLog, confirmLog);
    if (entry.key === '') this.rekey(this.groups.get(entry.base)!);
    this.version++;
    return entry;
  }

  /** A log's entry, keyed by its base when it is its own; '' when its base is shared or reserved (its group is keyed after). */
  private addLog(root: string, rel: string, stem: string, flowLog: boolean, confirmLog: boolean): SessionEntry {
    const row = this.cols.take();
    const entry = new SessionEntry(this.cols, row, root, rel, keyBase(stem));
    this.addedCount++;
    this.cols.setCompanion(row, FLOW_LOG_BESIDE, flowLog);
    this.cols.setCompanion(row, CONFIRM_LOG_BESIDE, confirmLog);
    const base = entry.base;
    const group = this.groups.get(base);
    const single = group === undefined ? this.byKey.get(base) : undefined;
    // Most logs have a stem of their own: keyed at once. Groups of several are keyed once all are in.
    if (group === undefined && single === undefined && !RESERVED_SESSION_KEYS.has(base)) this.setKey(entry, base);
    else if (group !== undefined) group.push(entry);
    else this.groups.set(base, single === undefined ? [entry] : [single, entry]);
    return entry;
  }

  remove(rel: string): SessionEntry | null {
    const entry = this.byRel.get(rel);
    if (!entry) return null;
    this.unsort(entry);
    this.failing.delete(entry);
    if (entry.stamp !== null) this.summarizedCount--;
    this.filters.release(entry.filterSlot);
    const row = entry.row;
    entry.detach();
    this.cols.release(row);
    if (this.byKey.get(entry.key) === entry) this.byKey.delete(entry.key);
    this.note(entry.key);
    const group = this.groups.get(entry.base);
    if (group !== undefined) {
      const rest = group.filter((e) => e !== entry);
      if (rest.length === 0 || (rest.length === 1 && !RESERVED_SESSION_KEYS.has(entry.base))) this.groups.delete(entry.base);
      else this.groups.set(entry.base, rest);
      // What is left is keyed again: a lone log by its base, a group as assignKeys says.
      if (rest.length > 0) this.rekey(rest);
    }
    this.version++;
    return entry;
  }

  /** A companion came or went: the entry's files change (and it must be summarized again). */
  setCompanion(rel: string, which: 'hasFlowLog' | 'hasConfirmLog', there: boolean): SessionEntry | null {
    const entry = this.byRel.get(rel);
    if (!entry) return null;
    entry[which] = there;
    return entry;
  }

  /**
   * Store what indexing found. `announce`: keep its key for drainChanged even while changes are not tracked
   * (a log written after start is named to the streams, even during the cold index).
   */
  apply(
    entry: SessionEntry,
    stamp: string,
    mtimeMs: number,
    result: { ok: true; value: IndexedSummary } | { ok: false; message: string },
    now: number,
    { announce = false, filter = null }: { announce?: boolean; filter?: Uint8Array | null } = {},
  ): void {
    if (!this.restamp(entry, stamp, mtimeMs, now, filter)) return;
    if (result.ok) {
      this.cols.setSummary(entry.row, result.value, entry.base);
      this.readableNow(entry);
    } else {
      this.cols.setUnreadable(entry.row, result.message);
      this.failing.add(entry);
    }
    if (announce) this.changed.add(entry.key);
    else this.note(entry.key);
    this.version++;
  }

  /** `apply` of a summary given as figures of this index's tables (a saved index's, read in place: index-wire.ts). */
  applyFigures(entry: SessionEntry, stamp: string, mtimeMs: number, figures: SummaryFigures, now: number, filter: Uint8Array | null): void {
    if (!this.restamp(entry, stamp, mtimeMs, now, filter)) return;
    this.cols.setFigures(entry.row, figures, entry.base);
    this.readableNow(entry);
    this.note(entry.key);
    this.version++;
  }

  /** The shared values' ids, for figures made to be applied (applyFigures). */
  get valueIds(): SharedValueIds {
    return this.cols;
  }

  /** An entry's new stamp, times and filter, out of the list until its summary is in; false if it was removed meanwhile. */
  private restamp(entry: SessionEntry, stamp: string, mtimeMs: number, now: number, filter: Uint8Array | null): boolean {
    if (!entry.inIndex) return false;
    const row = entry.row;
    const cols = this.cols;
    cols.setFilterSlot(row, filter === null ? this.filters.release(entry.filterSlot) : this.filters.put(entry.filterSlot, filter));
    if (entry.stamp === null) this.summarizedCount++;
    entry.stamp = stamp;
    cols.setMtimeMs(row, mtimeMs);
    cols.setIndexedAt(row, Math.round(now));
    this.unsort(entry);
    return true;
  }

  private readableNow(entry: SessionEntry): void {
    this.failing.delete(entry);
    this.insertSorted(entry as ReadableEntry);
  }

  /** A search filter made after the entry's summary, from the files as they were stamped then (`stamp`): kept only if the entry still has that stamp. */
  setFilter(entry: SessionEntry, stamp: string, filter: Uint8Array): void {
    if (entry.inIndex && entry.stamp === stamp) this.cols.setFilterSlot(entry.row, this.filters.put(entry.filterSlot, filter));
  }

  /** Filters were made: a change the saved index must take in (the saver writes a new version). */
  noteFiltersMade(): void {
    this.version++;
  }

  /** Mark an unchanged re-check (stamps the same): nothing a reader sees moves. */
  confirm(entry: SessionEntry, now: number): void {
    if (entry.inIndex) this.cols.setIndexedAt(entry.row, Math.round(now));
  }

  /** Unreadable logs in scan order (depth-first, by name), as the health list names them. */
  unreadable(): SessionEntry[] {
    return [...this.failing].sort((a, b) => compareRel(a.rel, b.rel));
  }

  /** How many readable sessions started at or after `ms`. */
  startedSince(ms: number): number {
    return this.firstStartedBefore(ms);
  }

  /** The first place in the list whose session started before `ms` (the list is newest first). */
  private firstStartedBefore(ms: number): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cols.started(this.sorted[mid]!.row) >= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The newest start among a tally cell's sessions: the first of them in the list, within the cell's day. */
  private newestIn(cell: TallyCell): number {
    const dayStart = cell.day * DAY_MS;
    for (let i = this.firstStartedBefore(dayStart + DAY_MS); i < this.sorted.length; i++) {
      const e = this.sorted[i]!;
      const started = this.cols.started(e.row);
      if (started < dayStart) break;
      if (this.tallies.holds(cell, this.rowOf(e, this.tallyRow))) return started;
    }
    throw new Error(`no session of the tally of ${cell.domain ?? '(no domain)'} on day ${cell.day} is listed`);
  }

  private rowOf(e: SessionEntry, view: SummaryRow): SummaryRow {
    return view.at(e.row, e.key, e.rel, e.base);
  }

  /**
   * The query's filters, in the order domain, mode, q, then the rest, as one test of an entry: null when it
   * asks none, 'none' when a domain or mode it names no session has.
   */
  private filterOf(query: SessionsQuery): ((row: number, at: number) => boolean) | null | 'none' {
    const within = query.from || query.to ? startedWithin(query) : null;
    const traits = traitsPredicate(query);
    if (!query.domain && !query.mode && within === null && !query.q && traits === null) return null;
    const cols = this.cols;
    // A text no session has has no id: no readable row holds NONE as its mode, nor may match a domain by it.
    const domain = query.domain ? cols.textId(query.domain) : null;
    const mode = query.mode ? cols.textId(query.mode) : null;
    if ((domain ?? 0) === NONE || (mode ?? 0) === NONE) return 'none';
    const matches = query.q ? cols.matcher(query.q.toLowerCase()) : null;
    const view = this.listRow;
    // `row`: the list's `at`th entry's, read from the typed rows; the entry itself only for the other filters.
    return (row, at) => {
      if (domain !== null && cols.domainId(row) !== domain) return false;
      if (mode !== null && cols.modeId(row) !== mode) return false;
      if (within !== null && !within(this.rowOf(this.sorted[at]!, view))) return false;
      if (matches !== null && !matches.has(row)) return false;
      return traits === null || traits(this.rowOf(this.sorted[at]!, view), this.sorted[at]!);
    };
  }

  /** Another order than the list's own, newest first. */
  private static customOrder(query: SessionsQuery): boolean {
    return (query.sort ?? 'started') !== 'started' || (query.order ?? 'desc') !== 'desc';
  }

  /** A page of the list; `total` and `sums` before paging. */
  list(query: SessionsQuery): { total: number; items: SessionSummary[]; sums: SessionSums } {
    const keep = this.filterOf(query);
    if (keep === 'none') return { total: 0, items: [], sums: sumsOf([]) };
    // Another order than newest first gathers every match, then sorts and pages.
    const custom = SessionIndex.customOrder(query);
    const offset = Math.max(0, query.offset);
    const end = offset + Math.max(0, query.limit);
    const cols = this.cols;
    const summary = (e: SessionEntry) => cols.summary(e.row, e.key, e.rel, e.base);
    // No filter, newest first: the page is a slice (the list's first page, and every progress poll).
    if (keep === null && !custom) {
      const sums = sumsOf([]);
      for (const c of this.tallies.cells()) {
        sums.tool_calls += c.tool_calls;
        sums.flow_lookups += c.flow_lookups;
      }
      sums.shadow_decisions = this.tallies.shadowDecisions();
      return { total: this.sorted.length, items: this.sorted.slice(offset, end).map(summary), sums };
    }
    const items: SessionSummary[] = [];
    const sums = sumsOf([]);
    let total = 0;
    const rows = this.order.view;
    for (let at = 0; at < this.order.length; at++) {
      const row = rows[at]!;
      if (keep !== null && !keep(row, at)) continue;
      if (custom || (total >= offset && total < end)) items.push(summary(this.sorted[at]!));
      total++;
      sums.tool_calls += cols.toolCalls(row);
      sums.flow_lookups += cols.flowLookups(row);
      sums.shadow_decisions += cols.shadowDecisions(row);
    }
    if (custom) return { total, items: items.sort(sessionComparator(query.sort, query.order)).slice(offset, end), sums };
    return { total, items, sums };
  }

  /**
   * Every session the query keeps, in the list's order, as entries: no summary is made unless another order
   * than newest first asks for them to sort by (the OTLP export of a list, which needs the files only).
   */
  matching(query: SessionsQuery): ReadableEntry[] {
    const keep = this.filterOf(query);
    if (keep === 'none') return [];
    const rows = this.order.view;
    const kept = keep === null ? this.sorted.slice() : this.sorted.filter((_, at) => keep(rows[at]!, at));
    if (!SessionIndex.customOrder(query)) return kept;
    const order = sessionComparator(query.sort, query.order);
    return kept
      .map((e) => ({ e, s: this.cols.summary(e.row, e.key, e.rel, e.base) }))
      .sort((a, b) => order(a.s, b.s))
      .map(({ e }) => e);
  }

  /** Keys for the logs of one base, as assignKeys gives them (collisions only happen within a base). */
  private rekey(group: readonly SessionEntry[]): void {
    const keys = assignKeys(
      group.map((e) => ({ stem: e.base, rel: e.rel })),
      RESERVED_SESSION_KEYS,
    );
    group.forEach((e, i) => {
      if (e.key !== keys[i]!) this.setKey(e, keys[i]!);
    });
  }

  private setKey(e: SessionEntry, key: string): void {
    if (e.key !== '' && this.byKey.get(e.key) === e) this.byKey.delete(e.key);
    // A log not yet summarized is announced once, when its summary is in (apply).
    if (e.key !== '' && e.stamp !== null) this.note(e.key);
    e.key = key;
    this.byKey.set(key, e);
    if (e.stamp !== null) this.note(key);
  }

  /**
   * Newest first, as `newestFirst` orders summaries: by start, then session id, both descending; then by
   * path. Read from the rows, so no summary is made to place one.
   */
  private newer(a: SessionEntry, b: SessionEntry): number {
    const cols = this.cols;
    const sa = cols.started(a.row);
    const sb = cols.started(b.row);
    if (sa !== sb) return sb - sa;
    const ia = cols.sessionId(a.row, a.base);
    const ib = cols.sessionId(b.row, b.base);
    if (ia !== ib) return ia < ib ? 1 : -1;
    return a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0;
  }

  private position(e: SessionEntry): number {
    let hi = this.sorted.length;
    // Most go last: the start-up lists logs newest first.
    if (hi === 0 || this.newer(this.sorted[hi - 1]!, e) < 0) return hi;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.newer(this.sorted[mid]!, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertSorted(e: ReadableEntry): void {
    this.tallies.add(this.rowOf(e, this.tallyRow), this.cols.shadowDecisions(e.row));
    const at = this.position(e);
    // Within `placing`, one that does not go last waits for the merge at its end.
    if (this.toPlace !== null && at < this.sorted.length) {
      this.toPlace.add(e);
      return;
    }
    this.place(e, at);
  }

  /** Take a readable entry out of the list and the tallies, with the figures it was put in with. */
  private unsort(e: SessionEntry): void {
    if (!this.cols.readable(e.row)) return;
    if (this.toPlace?.delete(e as ReadableEntry)) {
      this.tallies.remove(this.rowOf(e, this.tallyRow), this.cols.shadowDecisions(e.row));
      return;
    }
    let at = -1;
    for (let i = this.position(e); i < this.sorted.length; i++) {
      const other = this.sorted[i]!;
      if (other === e) {
        at = i;
        break;
      }
      if (this.newer(other, e) !== 0) break;
    }
    // Not where its summary says (should not happen): look everywhere rather than keep a stale row.
    if (at === -1) at = this.sorted.indexOf(e as ReadableEntry);
    if (at === -1) return;
    this.sorted.splice(at, 1);
    this.order.remove(at);
    this.tallies.remove(this.rowOf(e, this.tallyRow), this.cols.shadowDecisions(e.row));
  }

  /**
   * Run `body`, which applies answers in a row: the entries it makes readable that do not go last in the list are
   * put in it in one merge at its end, rather than each moving the entries after it (a restart's re-read logs
   * land all over a list of 100k).
   */
  placing(body: () => void): void {
    if (this.toPlace !== null) return body();
    this.toPlace = new Set();
    try {
      body();
    } finally {
      const placed = [...this.toPlace];
      this.toPlace = null;
      this.merge(placed);
    }
  }

  private merge(placed: ReadableEntry[]): void {
    if (placed.length < this.mergeFrom) {
      for (const e of placed) this.place(e, this.position(e));
      return;
    }
    placed.sort((a, b) => this.newer(a, b));
    // Each one's place among the listed entries (non-decreasing, as they are sorted).
    const at = placed.map((e) => this.position(e));
    const sorted = this.sorted;
    // Merged from the end: only the entries after the first place move (a restart's listing places near the end).
    let i = sorted.length - 1;
    for (let k = 0; k < placed.length; k++) sorted.push(sorted[i]!);
    for (let j = placed.length - 1, w = sorted.length - 1; j >= 0; j--) {
      while (i >= at[j]!) sorted[w--] = sorted[i--]!;
      sorted[w--] = placed[j]!;
    }
    this.order.insertMany(at, placed.map((e) => e.row));
  }

  private place(e: ReadableEntry, at: number): void {
    this.sorted.splice(at, 0, e);
    this.order.insert(at, e.row);
  }
}

/** Depth-first scan order: component by component, by code unit. */
export function compareRel(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  }
  return pa.length - pb.length;
}
