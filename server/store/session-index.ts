// Every session log in reach, by relative path and by key, with its summary, kept in the list's order
// (newest first) as summaries arrive, so a page of the list costs the page, and a filter the sessions it
// looks at, never a sort or a stat of the whole directory.
//
// Keys follow console-api.md §3.1: they depend only on the files that share a key base, so a file that comes
// or goes re-keys its own group and nothing else. A summary is stored once, compacted: its text fields that
// repeat across sessions (domain, agent, mode, the upstream, the tools called) point at one shared copy, so
// the heap grows with the sessions' own facts only.
import type { SessionSiteCount, SessionsQuery, SessionSums, SessionSummary, UpstreamView } from '../../shared/sessions.ts';
import { assignKeys, keyBase, RESERVED_SESSION_KEYS } from '../engine/keys.ts';
import { newestFirst, sessionComparator, startedWithin, sumsOf, traitsPredicate } from '../engine/session-filter.ts';
import type { IndexedSummary } from '../engine/sessions.ts';
import { Tallies, type TallyCell, upstreamId } from '../engine/tallies.ts';
import { DAY_MS } from '../../shared/limits.ts';
import type { SessionFile } from './catalog.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { FilterArena } from './search-filters.ts';

const NO_TOOLS: readonly string[] = Object.freeze([]);

/**
 * A whole number as V8 keeps it in place in an object (a small integer), not boxed: summaries arrive from
 * typed arrays (index-wire.ts), whose doubles would box every value a field holds after them.
 */
function unboxed(n: number): number {
  return Number.isInteger(n) && n >= -0x40000000 && n < 0x40000000 ? n | 0 : n;
}

/** One session log in the index. Its absolute paths are made when asked, so an entry holds one string, its rel. */
export class SessionEntry implements SessionFile {
  key = '';
  /** The stamps the summary was made from (`log|flow log|confirm log`); null before the first index. */
  stamp: string | null = null;
  mtimeMs = 0;
  summary: SessionSummary | null = null;
  /** Why the log is not a session log this engine can read (null when it reads, or before the first index). */
  error: string | null = null;
  /** The names of the tools called, shared between sessions that called the same ones. */
  tools: readonly string[] = NO_TOOLS;
  /** Decisions the flow log holds in shadow (lookups and hand-backs). */
  shadowDecisions = 0;
  /** What the flow log shows per site (a flow's evidence reads it); null without a decision. */
  flowSites: readonly SessionSiteCount[] | null = null;
  /** The session id lowercased, for `q` (the same string when it has no capitals). */
  idLower = '';
  /** When it was last summarized (ms, process clock): a log that keeps growing is re-read at a measured pace. */
  indexedAt = 0;
  /** Its search filter's slot in the index's arena (search-filters.ts), made with its summary; -1 for none. */
  filterSlot = -1;
  hasFlowLog: boolean;
  hasConfirmLog: boolean;
  /** Still in its index: false once removed (what it is told then is dropped; a map lookup per summary cost more). */
  inIndex = true;

  constructor(
    /** The data directory. */
    readonly root: string,
    readonly rel: string,
    readonly base: string,
    hasFlowLog: boolean,
    hasConfirmLog: boolean,
  ) {
    this.hasFlowLog = hasFlowLog;
    this.hasConfirmLog = hasConfirmLog;
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
}

/** A log to add: where it is, and whether its companions are beside it. */
export interface NewLog {
  rel: string;
  name: string;
  flowLog: boolean;
  confirmLog: boolean;
}

/** An entry whose log reads: it has a summary (the list holds only these). */
export type ReadableEntry = SessionEntry & { summary: SessionSummary };

const isReadable = (e: SessionEntry): e is ReadableEntry => e.summary !== null;

/** One shared copy of each repeated string and structure. */
class Interner {
  private readonly strings = new Map<string, string>();
  private readonly lower = new Map<string, string>();
  private readonly upstreams = new Map<string, UpstreamView>();
  private readonly toolSets = new Map<string, readonly string[]>();
  private readonly toolText = new WeakMap<readonly string[], string>();
  private readonly siteLists = new Map<string, readonly SessionSiteCount[]>();
  /**
   * The shared copy of a structure already met, by identity: a batch's answers share one copy of each
   * upstream and tool set (index-wire.ts), so most summaries find theirs without building its id.
   */
  private readonly seenUpstreams = new WeakMap<UpstreamView, UpstreamView>();
  private readonly seenTools = new WeakMap<readonly string[], readonly string[]>();

  string<T extends string | null>(s: T): T {
    if (s === null) return s;
    const hit = this.strings.get(s);
    if (hit !== undefined) return hit as T;
    if (this.strings.size < 100_000) this.strings.set(s, s);
    return s;
  }

  lowered(s: string): string {
    let hit = this.lower.get(s);
    if (hit === undefined) {
      hit = s.toLowerCase();
      if (this.lower.size < 100_000) this.lower.set(s, hit);
    }
    return hit;
  }

  upstream(u: UpstreamView | null): UpstreamView | null {
    if (u === null) return null;
    const known = this.seenUpstreams.get(u);
    if (known !== undefined) return known;
    const shared = this.upstreamById(u);
    this.seenUpstreams.set(u, shared);
    return shared;
  }

  private upstreamById(u: UpstreamView): UpstreamView {
    const id = upstreamId(u);
    const hit = this.upstreams.get(id);
    if (hit) return hit;
    this.upstreams.set(id, u);
    return u;
  }

  tools(names: readonly string[]): readonly string[] {
    if (names.length === 0) return NO_TOOLS;
    const known = this.seenTools.get(names);
    if (known !== undefined) return known;
    const shared = this.toolsById(names);
    this.seenTools.set(names, shared);
    return shared;
  }

  private toolsById(names: readonly string[]): readonly string[] {
    const id = names.join('\u0000');
    const hit = this.toolSets.get(id);
    if (hit) return hit;
    const set = Object.freeze(names.map((n) => this.string(n)));
    this.toolSets.set(id, set);
    this.toolText.set(set, names.join('\n').toLowerCase());
    return set;
  }

  /**
   * One shared copy of each list of a flow log's counts by site: the sessions a flow serves show the same few
   * lists. A list's id gives each site name's length before it, so no name (a flow log may hold any text) can
   * make two lists look alike.
   */
  siteCounts(sites: readonly SessionSiteCount[] | undefined): readonly SessionSiteCount[] | null {
    if (sites === undefined) return null;
    let id = '';
    for (const x of sites) id += `${x.lookups},${x.hand_backs},${x.shadow},${x.site.length}:${x.site}`;
    const hit = this.siteLists.get(id);
    if (hit !== undefined) return hit;
    if (this.siteLists.size < 100_000) this.siteLists.set(id, sites);
    return sites;
  }

  /** The tools called, lowercased and joined by newlines, for `q`. */
  toolsText(set: readonly string[]): string {
    return this.toolText.get(set) ?? set.join('\n').toLowerCase();
  }
}

export class SessionIndex {
  readonly byRel = new Map<string, SessionEntry>();
  readonly byKey = new Map<string, SessionEntry>();
  /** Entries by key base: one entry, or several when their stems clash. */
  private readonly groups = new Map<string, SessionEntry | SessionEntry[]>();
  /** Readable sessions, newest first. */
  private readonly sorted: ReadableEntry[] = [];
  /** The readable sessions' running sums (the overview, savings, servers' counts read them). */
  readonly tallies = new Tallies((cell) => this.newestIn(cell));
  /** Entries whose log does not read. */
  private readonly failing = new Set<SessionEntry>();
  private readonly intern = new Interner();
  /** The sessions' search filters, by their entries' `filterSlot`. */
  readonly filters = new FilterArena();
  /** Bumped on every change a reader could see. */
  version = 0;
  /** Keys added, removed, re-keyed or re-summarized since the last drain (for `changed` events). */
  private readonly changed = new Set<string>();
  /** Logs summarized at least once (the cold index's count; `Progress.indexed` on the wire). */
  summarizedCount = 0;

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

  constructor(options: { trackChanges?: boolean } = {}) {
    this.tracking = options.trackChanges ?? true;
  }

  /** Keep the changes from here on (those before are not kept). */
  trackChanges(): void {
    this.tracking = true;
  }

  private note(key: string): void {
    if (this.tracking) this.changed.add(key);
  }

  /** Add logs (with whether their companions are there): keys are assigned per group once all are in. */
  add(root: string, files: readonly NewLog[]): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (const f of files) {
      if (this.byRel.has(f.rel)) continue;
      const entry = new SessionEntry(root, f.rel, keyBase(f.name.slice(0, -'.jsonl'.length)), f.flowLog, f.confirmLog);
      this.byRel.set(f.rel, entry);
      const group = this.groups.get(entry.base);
      if (group === undefined) this.groups.set(entry.base, entry);
      else if (Array.isArray(group)) group.push(entry);
      else this.groups.set(entry.base, [group, entry]);
      out.push(entry);
    }
    // Most logs have a stem of their own: keyed at once. Groups of several are keyed once all are in.
    let shared: Set<string> | null = null;
    for (const e of out) {
      if (this.groups.get(e.base) === e) this.rekey(e.base);
      else (shared ??= new Set()).add(e.base);
    }
    if (shared !== null) for (const base of shared) this.rekey(base);
    if (out.length) this.version++;
    return out;
  }

  remove(rel: string): SessionEntry | null {
    const entry = this.byRel.get(rel);
    if (!entry) return null;
    this.unsort(entry);
    this.failing.delete(entry);
    if (entry.stamp !== null) this.summarizedCount--;
    entry.filterSlot = this.filters.release(entry.filterSlot);
    this.byRel.delete(rel);
    entry.inIndex = false;
    if (this.byKey.get(entry.key) === entry) this.byKey.delete(entry.key);
    this.note(entry.key);
    const rest = this.group(entry.base).filter((e) => e !== entry);
    if (rest.length > 1) this.groups.set(entry.base, rest);
    else if (rest.length === 1) this.groups.set(entry.base, rest[0]!);
    else this.groups.delete(entry.base);
    this.rekey(entry.base);
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
    if (!entry.inIndex) return; // removed meanwhile
    entry.filterSlot = filter === null ? this.filters.release(entry.filterSlot) : this.filters.put(entry.filterSlot, filter);
    if (entry.stamp === null) this.summarizedCount++;
    entry.stamp = stamp;
    entry.mtimeMs = mtimeMs;
    entry.indexedAt = unboxed(Math.round(now));
    this.unsort(entry);
    if (result.ok) {
      entry.summary = this.compact(result.value, entry);
      entry.tools = this.intern.tools(result.value.tools_called);
      entry.shadowDecisions = unboxed(result.value.shadow_decisions);
      entry.flowSites = this.intern.siteCounts(result.value.flow_sites);
      entry.idLower = entry.summary.session_id.toLowerCase();
      entry.error = null;
      this.failing.delete(entry);
      if (isReadable(entry)) this.insertSorted(entry);
    } else {
      entry.summary = null;
      entry.tools = NO_TOOLS;
      entry.shadowDecisions = 0;
      entry.flowSites = null;
      entry.error = result.message;
      this.failing.add(entry);
    }
    if (announce) this.changed.add(entry.key);
    else this.note(entry.key);
    this.version++;
  }

  /** A search filter made after the entry's summary, from the files as they were stamped then (`stamp`): kept only if the entry still has that stamp. */
  setFilter(entry: SessionEntry, stamp: string, filter: Uint8Array): void {
    if (this.byRel.get(entry.rel) === entry && entry.stamp === stamp) entry.filterSlot = this.filters.put(entry.filterSlot, filter);
  }

  /** Filters were made: a change the saved index must take in (the saver writes a new version). */
  noteFiltersMade(): void {
    this.version++;
  }

  /** Mark an unchanged re-check (stamps the same): nothing a reader sees moves. */
  confirm(entry: SessionEntry, now: number): void {
    entry.indexedAt = unboxed(Math.round(now));
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
      if (this.sorted[mid]!.summary.started_unix_ms >= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The newest start among a tally cell's sessions: the first of them in the list, within the cell's day. */
  private newestIn(cell: TallyCell): number {
    const dayStart = cell.day * DAY_MS;
    for (let i = this.firstStartedBefore(dayStart + DAY_MS); i < this.sorted.length; i++) {
      const s = this.sorted[i]!.summary;
      if (s.started_unix_ms < dayStart) break;
      if (this.tallies.holds(cell, s)) return s.started_unix_ms;
    }
    throw new Error(`no session of the tally of ${cell.domain ?? '(no domain)'} on day ${cell.day} is listed`);
  }

  /** A page of the list: filters in the order domain, mode, q, then the rest; `total` and `sums` before paging. */
  list(query: SessionsQuery): { total: number; items: SessionSummary[]; sums: SessionSums } {
    const { domain, mode } = query;
    const needle = query.q ? query.q.toLowerCase() : null;
    const within = query.from || query.to ? startedWithin(query) : null;
    const traits = traitsPredicate(query);
    // Another order than newest first gathers every match, then sorts and pages.
    const custom = (query.sort ?? 'started') !== 'started' || (query.order ?? 'desc') !== 'desc';
    const offset = Math.max(0, query.offset);
    const end = offset + Math.max(0, query.limit);
    // No filter, newest first: the page is a slice (the list's first page, and every progress poll).
    if (!domain && !mode && within === null && needle === null && traits === null && !custom) {
      const sums = sumsOf([]);
      for (const c of this.tallies.cells()) {
        sums.tool_calls += c.tool_calls;
        sums.flow_lookups += c.flow_lookups;
      }
      sums.shadow_decisions = this.tallies.shadowDecisions();
      return { total: this.sorted.length, items: this.sorted.slice(offset, end).map((e) => e.summary), sums };
    }
    const items: SessionSummary[] = [];
    const sums = sumsOf([]);
    let total = 0;
    for (const e of this.sorted) {
      const s = e.summary!;
      if (domain && s.domain !== domain) continue;
      if (mode && s.mode !== mode) continue;
      if (within !== null && !within(s)) continue;
      if (needle !== null && !this.matches(e, s, needle)) continue;
      if (traits !== null && !traits(s, e)) continue;
      if (custom || (total >= offset && total < end)) items.push(s);
      total++;
      sums.tool_calls += s.tool_calls;
      sums.flow_lookups += s.flow_lookups;
      sums.shadow_decisions += e.shadowDecisions;
    }
    if (custom) return { total, items: items.sort(sessionComparator(query.sort, query.order)).slice(offset, end), sums };
    return { total, items, sums };
  }

  private matches(e: SessionEntry, s: SessionSummary, needle: string): boolean {
    const i = this.intern;
    return (
      e.idLower.includes(needle) ||
      (s.domain !== null && i.lowered(s.domain).includes(needle)) ||
      (s.agent !== null && i.lowered(s.agent).includes(needle)) ||
      (e.tools.length > 0 && i.toolsText(e.tools).includes(needle))
    );
  }

  private compact(s: IndexedSummary, e: SessionEntry): SessionSummary {
    const i = this.intern;
    // One literal in wire order: every summary shares one shape (and the order is the order on the wire).
    return {
      key: e.key,
      path: e.rel,
      session_id: s.session_id,
      domain: i.string(s.domain),
      agent: i.string(s.agent),
      started_unix_ms: s.started_unix_ms,
      duration_ms: unboxed(s.duration_ms),
      mode: i.string(s.mode),
      tool_calls: unboxed(s.tool_calls),
      llm_turns: unboxed(s.llm_turns),
      errors: unboxed(s.errors),
      flow_lookups: unboxed(s.flow_lookups),
      hand_backs: unboxed(s.hand_backs),
      shadow_lookups: unboxed(s.shadow_lookups),
      surprised: s.surprised ?? false,
      writes: unboxed(s.writes),
      upstream: i.upstream(s.upstream),
      size_bytes: unboxed(s.size_bytes),
      has_flow_log: s.has_flow_log,
      has_confirm_log: s.has_confirm_log,
    };
  }

  /** Keys of one group, as assignKeys gives them (collisions only happen within a group). */
  private group(base: string): SessionEntry[] {
    const g = this.groups.get(base);
    return g === undefined ? [] : Array.isArray(g) ? g : [g];
  }

  private rekey(base: string): void {
    const one = this.groups.get(base);
    if (one instanceof SessionEntry && !RESERVED_SESSION_KEYS.has(base)) {
      // A stem of its own: its key is its base (what assignKeys gives a group of one).
      if (one.key !== base) this.setKey(one, base);
      return;
    }
    const group = this.group(base);
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
    if (e.summary) e.summary = { ...e.summary, key };
    this.byKey.set(key, e);
    if (e.stamp !== null) this.note(key);
  }

  private position(s: SessionSummary): number {
    let hi = this.sorted.length;
    // Most go last: the start-up lists logs newest first.
    if (hi === 0 || newestFirst(this.sorted[hi - 1]!.summary, s) < 0) return hi;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newestFirst(this.sorted[mid]!.summary!, s) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertSorted(e: ReadableEntry): void {
    this.sorted.splice(this.position(e.summary), 0, e);
    this.tallies.add(e.summary, e.shadowDecisions);
  }

  private unsort(e: SessionEntry): void {
    if (!e.summary) return;
    for (let i = this.position(e.summary); i < this.sorted.length; i++) {
      const at = this.sorted[i]!;
      if (at === e) {
        this.sorted.splice(i, 1);
        this.tallies.remove(e.summary, e.shadowDecisions);
        return;
      }
      if (newestFirst(at.summary, e.summary) !== 0) break;
    }
    // Not where its summary says (should not happen): look everywhere rather than keep a stale row.
    const j = this.sorted.findIndex((at) => at === e);
    if (j === -1) return;
    this.sorted.splice(j, 1);
    this.tallies.remove(e.summary, e.shadowDecisions);
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
