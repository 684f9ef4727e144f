// How a batch of logs to index crosses to the pool, and its answers back: as one serialized buffer each, the
// answers in columns: a few typed arrays, the strings each log has of its own, and one copy of each string the
// batch repeats. Every hop of the pool's channel copies it as bytes and it is decoded once, so the event loop
// never clones a summary's objects and strings one by one.
import { deserialize, serialize } from 'node:v8';
import type { SessionSiteCount, UpstreamView } from '../../shared/sessions.ts';
import type { IndexedSummary, SessionFiles } from '../engine/sessions.ts';
import type { Result } from '../result.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { FILTER_BYTES, type FilterArena } from './search-filters.ts';
import { type SharedValueIds, type SharedValues, sitesId, type SummaryFigures } from './summary-columns.ts';
import { NONE } from './value-table.ts';

/** Paths hold no NUL (POSIX), nor do stamps: NUL joins them. */
const SEP = '\u0000';
const ITEM_FLOW_LOG = 1;
const ITEM_CONFIRM_LOG = 2;
const ITEM_KNOWN = 4;
const ITEM_FILTER = 8;

interface PackedItems {
  /** The logs' absolute paths. A log's companions are beside it (`<stem>.flow.jsonl`, `<stem>.confirm.jsonl`). */
  paths: string;
  /** Per log: ITEM_FLOW_LOG, ITEM_CONFIRM_LOG, ITEM_KNOWN, ITEM_FILTER. */
  flags: Uint8Array;
  /** The stamps the index holds, for the logs with ITEM_KNOWN. */
  known: string;
  bigFrom: number | null;
  outlineTo: string | null;
}

const stemOf = (path: string) => path.slice(0, -JSONL.length);

/** One log to index: its files, and the stamp the index holds for it (null when it has none). */
export interface IndexItem extends SessionFiles {
  known: string | null;
  /** A log of this many bytes or more is not read in this batch but answered `big` (the store reads it alone). */
  bigFrom?: number;
  /** Also make the session's search filter (the cold index leaves it to the filler: filler.ts). */
  filter?: boolean;
  /** Also write the session page's outline (engine/session/views.ts) here, as JSON: a big log's page then opens without a pass over the log. */
  outlineTo?: string;
}

/**
 * What indexing one log found: its stamp (`size:mtime` of the log and each companion, `-` when missing),
 * and, unless the stamp is the one the index holds, the summary or why the log is not a session log.
 */
export type IndexResult =
  | { stamp: string; mtimeMs: number; unchanged: true }
  | { stamp: string; mtimeMs: number; unchanged: false; big: true }
  | { stamp: string; mtimeMs: number; unchanged: false; result: Result<IndexedSummary>; outlineBytes?: number; filter?: Uint8Array };

/**
 * On the event loop: logs to index, as one buffer. The batch shares one `bigFrom` and one `outlineTo` (the
 * store reads small logs in batches and a big one alone). The summaries' `key` and `path` are the entries'
 * own and are not sent.
 */
export function packItems(items: readonly IndexItem[]): Uint8Array {
  const flags = new Uint8Array(items.length);
  const known: string[] = [];
  items.forEach((item, i) => {
    const stem = stemOf(item.path);
    if (item.flowLog !== null && item.flowLog !== `${stem}${FLOW_LOG}`) throw new Error(`${item.flowLog} is not beside ${item.path}`);
    if (item.confirmLog !== null && item.confirmLog !== `${stem}${CONFIRM_LOG}`) throw new Error(`${item.confirmLog} is not beside ${item.path}`);
    flags[i] = (item.flowLog !== null ? ITEM_FLOW_LOG : 0) | (item.confirmLog !== null ? ITEM_CONFIRM_LOG : 0) | (item.known !== null ? ITEM_KNOWN : 0) | (item.filter ? ITEM_FILTER : 0);
    if (item.known !== null) known.push(item.known);
  });
  const first = items[0];
  const packed: PackedItems = {
    paths: items.map((i) => i.path).join(SEP),
    flags,
    known: known.join(SEP),
    bigFrom: first?.bigFrom ?? null,
    outlineTo: first?.outlineTo ?? null,
  };
  return serialize(packed);
}

/** In the worker: the logs of a batch. */
export function unpackItems(bytes: Uint8Array): IndexItem[] {
  const batch = unpackBatch(bytes);
  return Array.from({ length: batch.count }, (_, i) => batch.item(i));
}

/** In the worker: the logs of a batch, each made when asked, so that a log's item is garbage as soon as it is read. */
export function unpackBatch(bytes: Uint8Array): { count: number; item(i: number): IndexItem } {
  const p = deserialize(bytes) as PackedItems;
  const count = p.flags.length;
  const paths = count === 0 ? [] : p.paths.split(SEP);
  const known = count === 0 ? [] : p.known.split(SEP);
  // Each known stamp's place among the logs that have one.
  const knownAt = new Int32Array(count);
  for (let i = 0, k = 0; i < count; i++) knownAt[i] = (p.flags[i] as number) & ITEM_KNOWN ? k++ : -1;
  return {
    count,
    item(i: number): IndexItem {
      const f = p.flags[i] as number;
      const path = paths[i] as string;
      const stem = stemOf(path);
      const item: IndexItem = {
        key: '',
        rel: '',
        path,
        flowLog: f & ITEM_FLOW_LOG ? `${stem}${FLOW_LOG}` : null,
        confirmLog: f & ITEM_CONFIRM_LOG ? `${stem}${CONFIRM_LOG}` : null,
        known: f & ITEM_KNOWN ? (known[knownAt[i] as number] as string) : null,
      };
      if (f & ITEM_FILTER) item.filter = true;
      if (p.bigFrom !== null) item.bigFrom = p.bigFrom;
      if (p.outlineTo !== null) item.outlineTo = p.outlineTo;
      return item;
    },
  };
}

const UNCHANGED = 0;
const BIG = 1;
const SUMMARY = 2;
const UNREADABLE = 3;

/** The numbers of one log, in this order. */
const NUMS = [
  'mtimeMs',
  'outlineBytes',
  'started_unix_ms',
  'duration_ms',
  'tool_calls',
  'llm_turns',
  'errors',
  'flow_lookups',
  'hand_backs',
  'shadow_lookups',
  'writes',
  'size_bytes',
  'shadow_decisions',
  'flags',
] as const;
const N = NUMS.length;
const [MTIME, OUTLINE, STARTED, DURATION, TOOL_CALLS, LLM_TURNS, ERRORS, FLOW_LOOKUPS, HAND_BACKS, SHADOW_LOOKUPS, WRITES, SIZE, SHADOW_DECISIONS, FLAGS] =
  NUMS.map((_, i) => i) as number[] as [number, number, number, number, number, number, number, number, number, number, number, number, number, number];
/** `surprised` is a later version's field: absent, false or true. */
const SURPRISED = 1;
const SURPRISED_SAID = 2;
const HAS_FLOW_LOG = 4;
const HAS_CONFIRM_LOG = 8;
/** The log's search filter is in `filters`. */
const HAS_FILTER = 16;
/** The session id is the log's key base (not sent: a saved index's entries are taken with their base). */
const ID_IS_BASE = 32;

/** Per summary, indexes into the batch's shared values (-1 for null): domain, agent, mode in `table`, then `upstreams`, `toolSets`. */
const R = 5;

export interface PackedIndex {
  /** Per log: UNCHANGED, BIG, SUMMARY or UNREADABLE. */
  kind: Uint8Array;
  /** Per log, N numbers (NUMS); a summary's only when it has one. */
  nums: Float64Array;
  /** Per log, R references (R). */
  refs: Int32Array;
  /** Per log: its stamp, then its session id (SUMMARY) or why it is unreadable (UNREADABLE). */
  text: string[];
  /** Strings the batch repeats: domains, agents, modes, tool names. */
  table: string[];
  upstreams: UpstreamView[];
  /** Sets of tools called, as indexes into `table`. */
  toolSets: number[][];
  /** Per log with a flow log's counts by site: its index, and its list's in `siteLists`. */
  sites: [number, number][];
  /** The counts by site the batch's logs show, each distinct list once. */
  siteLists: SessionSiteCount[][];
  /** The search filters, FILTER_BYTES each, of the logs whose FLAGS have HAS_FILTER, in their order (the cold index sends none). */
  filters: Uint8Array;
}

/** In the worker: a batch's answers in columns, as one buffer. */
export function packResults(results: readonly IndexResult[]): Uint8Array {
  return serialize(packIndex(results));
}

/** On the event loop: the answers of a batch. */
export function unpackResults(bytes: Uint8Array): IndexResult[] {
  return unpackIndex(deserialize(bytes) as PackedIndex);
}

export function packIndex(results: readonly IndexResult[]): PackedIndex {
  const packer = new IndexPacker(results.length);
  for (const r of results) packer.add(r);
  return packer.finish();
}

/**
 * A batch's answers packed one at a time, as each log is read: a summary is garbage once packed, so a batch's
 * thousand summaries do not outlive the worker's young generation (copied, then promoted, then collected
 * with the old one).
 */
/** A session's search filter where its index keeps it: `slot` of `arena` (-1: none). */
export interface FilterAt {
  arena: FilterArena;
  slot: number;
}

export class IndexPacker {
  private readonly out: PackedIndex;
  private readonly strings = new Map<string, number>();
  private readonly upstreamIds = new Map<string, number>();
  private readonly toolSetIds = new Map<string, number>();
  private readonly siteListIds = new Map<string, number>();
  private next = 0;
  /** The filters sent, in order, FILTER_BYTES each: `filterCount` of them (room made for every log at the first). */
  private filterBytes = new Uint8Array(0);
  private filterCount = 0;
  /** addFigures: the batch's place of a value, by its id in the index's tables (a tool set NONE: the empty one). */
  private readonly textRefs = new Map<number, number>();
  private readonly upstreamRefs = new Map<number, number>();
  private readonly toolSetRefs = new Map<number, number>();
  private readonly siteListRefs = new Map<number, number>();

  constructor(private readonly count: number) {
    this.out = {
      kind: new Uint8Array(count),
      nums: new Float64Array(count * N),
      refs: new Int32Array(count * R).fill(-1),
      text: [],
      table: [],
      upstreams: [],
      toolSets: [],
      sites: [],
      siteLists: [],
      filters: new Uint8Array(0),
    };
  }


  private ref(s: string | null): number {
    if (s === null) return -1;
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.out.table.push(s) - 1;
      this.strings.set(s, i);
    }
    return i;
  }

  /** The next log's answer; `base`: its log's key base, when the reader will know it (a saved index's chunk). */
  add(r: IndexResult, base?: string): void {
    const { out } = this;
    const i = this.next++;
    if (i >= this.count) throw new Error(`a batch of ${this.count} logs got more answers`);
    const nums = i * N;
    out.nums[nums + MTIME] = r.mtimeMs;
    out.text.push(r.stamp);
    if (r.unchanged) {
      out.kind[i] = UNCHANGED;
      return;
    }
    if ('big' in r) {
      out.kind[i] = BIG;
      return;
    }
    out.nums[nums + OUTLINE] = r.outlineBytes ?? -1;
    if (!r.result.ok) {
      out.kind[i] = UNREADABLE;
      out.text.push(r.result.message);
      return;
    }
    const s = r.result.value;
    out.kind[i] = SUMMARY;
    const idIsBase = base !== undefined && s.session_id === base;
    out.text.push(idIsBase ? '' : s.session_id);
    out.nums[nums + STARTED] = s.started_unix_ms;
    out.nums[nums + DURATION] = s.duration_ms;
    out.nums[nums + TOOL_CALLS] = s.tool_calls;
    out.nums[nums + LLM_TURNS] = s.llm_turns;
    out.nums[nums + ERRORS] = s.errors;
    out.nums[nums + FLOW_LOOKUPS] = s.flow_lookups;
    out.nums[nums + HAND_BACKS] = s.hand_backs;
    out.nums[nums + SHADOW_LOOKUPS] = s.shadow_lookups;
    out.nums[nums + WRITES] = s.writes;
    out.nums[nums + SIZE] = s.size_bytes;
    out.nums[nums + SHADOW_DECISIONS] = s.shadow_decisions;
    out.nums[nums + FLAGS] = (s.surprised === undefined ? 0 : SURPRISED_SAID | (s.surprised ? SURPRISED : 0)) | (s.has_flow_log ? HAS_FLOW_LOG : 0) | (s.has_confirm_log ? HAS_CONFIRM_LOG : 0) | (r.filter ? HAS_FILTER : 0) | (idIsBase ? ID_IS_BASE : 0);
    if (r.filter) this.filterRoom().set(r.filter, this.filterCount++ * FILTER_BYTES);
    const refs = i * R;
    out.refs[refs] = this.ref(s.domain);
    out.refs[refs + 1] = this.ref(s.agent);
    out.refs[refs + 2] = this.ref(s.mode);
    if (s.upstream !== null) {
      const id = JSON.stringify(s.upstream);
      let u = this.upstreamIds.get(id);
      if (u === undefined) {
        u = out.upstreams.push(s.upstream) - 1;
        this.upstreamIds.set(id, u);
      }
      out.refs[refs + 3] = u;
    }
    const tools = s.tools_called.map((name) => this.ref(name));
    const id = tools.join(',');
    let t = this.toolSetIds.get(id);
    if (t === undefined) {
      t = out.toolSets.push(tools) - 1;
      this.toolSetIds.set(id, t);
    }
    out.refs[refs + 4] = t;
    if (s.flow_sites !== undefined) {
      const id = sitesId(s.flow_sites);
      let list = this.siteListIds.get(id);
      if (list === undefined) {
        list = out.siteLists.push(s.flow_sites) - 1;
        this.siteListIds.set(id, list);
      }
      out.sites.push([i, list]);
    }
  }

  /**
   * The next log's answer as an index holds it (a save): its figures, whose shared values are ids of the index's
   * tables, each looked up in `values` once a batch. Packs what `add` packs for the summary those figures show.
   */
  addFigures(stamp: string, mtimeMs: number, f: SummaryFigures, values: SharedValues, base: string, filter: FilterAt | null): void {
    const { out } = this;
    const i = this.next++;
    if (i >= this.count) throw new Error(`a batch of ${this.count} logs got more answers`);
    // Copied from its arena straight into the batch's filters: no array made for each.
    const hasFilter = filter !== null && filter.slot >= 0 && filter.arena.copyInto(filter.slot, this.filterRoom(), this.filterCount * FILTER_BYTES);
    if (hasFilter) this.filterCount++;
    const nums = i * N;
    out.nums[nums + MTIME] = mtimeMs;
    out.text.push(stamp);
    out.nums[nums + OUTLINE] = -1;
    out.kind[i] = SUMMARY;
    const idIsBase = f.sessionId === base;
    out.text.push(idIsBase ? '' : f.sessionId);
    out.nums[nums + STARTED] = f.started;
    out.nums[nums + DURATION] = f.duration;
    out.nums[nums + TOOL_CALLS] = f.toolCalls;
    out.nums[nums + LLM_TURNS] = f.llmTurns;
    out.nums[nums + ERRORS] = f.errors;
    out.nums[nums + FLOW_LOOKUPS] = f.flowLookups;
    out.nums[nums + HAND_BACKS] = f.handBacks;
    out.nums[nums + SHADOW_LOOKUPS] = f.shadowLookups;
    out.nums[nums + WRITES] = f.writes;
    out.nums[nums + SIZE] = f.size;
    out.nums[nums + SHADOW_DECISIONS] = f.shadowDecisions;
    out.nums[nums + FLAGS] = SURPRISED_SAID | (f.surprised ? SURPRISED : 0) | (f.hasFlowLog ? HAS_FLOW_LOG : 0) | (f.hasConfirmLog ? HAS_CONFIRM_LOG : 0) | (hasFilter ? HAS_FILTER : 0) | (idIsBase ? ID_IS_BASE : 0);
    const refs = i * R;
    out.refs[refs] = this.textRef(f.domain, values);
    out.refs[refs + 1] = this.textRef(f.agent, values);
    out.refs[refs + 2] = this.textRef(f.mode, values);
    if (f.upstream !== NONE) {
      let u = this.upstreamRefs.get(f.upstream);
      if (u === undefined) {
        u = out.upstreams.push(values.upstreamAt(f.upstream)!) - 1;
        this.upstreamRefs.set(f.upstream, u);
      }
      out.refs[refs + 3] = u;
    }
    let t = this.toolSetRefs.get(f.tools);
    if (t === undefined) {
      t = out.toolSets.push(values.toolsAt(f.tools).map((name) => this.ref(name))) - 1;
      this.toolSetRefs.set(f.tools, t);
    }
    out.refs[refs + 4] = t;
    if (f.sites !== NONE) {
      let list = this.siteListRefs.get(f.sites);
      if (list === undefined) {
        list = out.siteLists.push([...values.sitesAt(f.sites)!]) - 1;
        this.siteListRefs.set(f.sites, list);
      }
      out.sites.push([i, list]);
    }
  }

  private textRef(id: number, values: SharedValues): number {
    if (id === NONE) return -1;
    let ref = this.textRefs.get(id);
    if (ref === undefined) this.textRefs.set(id, (ref = this.ref(values.textAt(id))));
    return ref;
  }

  /** The packed answers; every log must have had its answer. */
  finish(): PackedIndex {
    if (this.next !== this.count) throw new Error(`a batch of ${this.count} logs got ${this.next} answers`);
    // A copy of its own size: a view would carry the whole room into the serialized bytes.
    this.out.filters = this.filterBytes.slice(0, this.filterCount * FILTER_BYTES);
    return this.out;
  }

  private filterRoom(): Uint8Array {
    if (this.filterBytes.length === 0) this.filterBytes = new Uint8Array(this.count * FILTER_BYTES);
    return this.filterBytes;
  }
}

/**
 * On the event loop: the answers as the index takes them. Their strings and structures are the batch's shared
 * copies (the index keeps one of each anyway), so each log costs its summary object and little else.
 */
export function unpackIndex(p: PackedIndex): IndexResult[] {
  const answers = new PackedAnswers(p);
  return Array.from({ length: answers.count }, (_, i) => answers.result(i));
}

/** One log's answer read in place (PackedAnswers.readInto), reused from log to log: no object is made per log. */
export interface AnswerView {
  stamp: string;
  mtimeMs: number;
  filter: Uint8Array | null;
  figures: SummaryFigures;
}

/** A shared value's id not looked up yet (ids are NONE, -1, or more). */
const UNSET = -2;

/**
 * A batch's packed answers, each log's made only when asked for and then let go: a saved index's chunk is
 * taken one log at a time, and a thousand answers made at once would outlive the young generation.
 */
export class PackedAnswers {
  /** The index whose ids `textIds`, `upstreamIds` and `toolIds` hold: each shared value is looked up there once. */
  private ids: SharedValueIds | null = null;
  private textIds = new Int32Array(0);
  private upstreamIds = new Int32Array(0);
  private toolIds = new Int32Array(0);
  private siteIds = new Int32Array(0);

  /** Per log: where its text begins. */
  private readonly textAt: Int32Array;
  /** Per log: its filter's place among the batch's filters (-1: none). */
  private readonly filterAt: Int32Array;
  private readonly toolSets: string[][];
  /** Per log with counts by site, its list's index in `siteLists`. */
  private readonly sites: Map<number, number>;

  constructor(private readonly p: PackedIndex) {
    const { kind, nums } = p;
    this.textAt = new Int32Array(kind.length);
    this.filterAt = new Int32Array(kind.length).fill(-1);
    for (let i = 0, t = 0, f = 0; i < kind.length; i++) {
      this.textAt[i] = t;
      const k = kind[i];
      t += k === SUMMARY || k === UNREADABLE ? 2 : 1;
      if (k === SUMMARY && (nums[i * N + FLAGS] as number) & HAS_FILTER) this.filterAt[i] = f++;
    }
    this.toolSets = p.toolSets.map((set) => set.map((i) => p.table[i] as string));
    this.sites = new Map(p.sites);
  }

  get count(): number {
    return this.p.kind.length;
  }

  /** The `i`th log's answer. */
  result(i: number): IndexResult {
    const { kind, nums, text } = this.p;
    const at = i * N;
    const stamp = text[this.textAt[i] as number] as string;
    const mtimeMs = nums[at + MTIME] as number;
    const k = kind[i];
    if (k === UNCHANGED) return { stamp, mtimeMs, unchanged: true };
    if (k === BIG) return { stamp, mtimeMs, unchanged: false, big: true };
    const outline = nums[at + OUTLINE] as number;
    // Optional fields are set after the literal, not spread into it: a spread costs a copy per log.
    const r: IndexResult = { stamp, mtimeMs, unchanged: false, result: this.outcome(i, null) };
    if (outline >= 0) r.outlineBytes = outline;
    const filter = this.filter(i);
    if (filter !== null) r.filter = filter;
    return r;
  }

  /**
   * The `i`th log's stamp, modification time, summary (or why it does not read) and filter; null when it has no
   * summary. `base`: its log's key base (a saved summary's session id may be it).
   */
  saved(i: number, base: string): { stamp: string; mtimeMs: number; result: Result<IndexedSummary>; filter: Uint8Array | null } | null {
    const k = this.p.kind[i];
    if (k !== SUMMARY && k !== UNREADABLE) return null;
    return { stamp: this.p.text[this.textAt[i] as number] as string, mtimeMs: this.p.nums[i * N + MTIME] as number, result: this.outcome(i, base), filter: this.filter(i) };
  }

  /**
   * The `i`th log's answer read into `view`, its shared values as ids of `ids`' tables (each looked up once per
   * batch); false (and `view` untouched) when it has no summary.
   */
  readInto(i: number, ids: SharedValueIds, view: AnswerView, base: string): boolean {
    const { kind, nums, refs, text } = this.p;
    if (kind[i] !== SUMMARY) return false;
    if (this.ids !== ids) this.idsIn(ids);
    const at = i * N;
    const r = i * R;
    const t = this.textAt[i] as number;
    const flags = nums[at + FLAGS] as number;
    const f = view.figures;
    view.stamp = text[t] as string;
    view.mtimeMs = nums[at + MTIME] as number;
    view.filter = this.filter(i);
    f.sessionId = (flags & ID_IS_BASE) !== 0 ? base : (text[t + 1] as string);
    f.started = nums[at + STARTED] as number;
    f.duration = nums[at + DURATION] as number;
    f.size = nums[at + SIZE] as number;
    f.toolCalls = nums[at + TOOL_CALLS] as number;
    f.llmTurns = nums[at + LLM_TURNS] as number;
    f.errors = nums[at + ERRORS] as number;
    f.flowLookups = nums[at + FLOW_LOOKUPS] as number;
    f.handBacks = nums[at + HAND_BACKS] as number;
    f.shadowLookups = nums[at + SHADOW_LOOKUPS] as number;
    f.writes = nums[at + WRITES] as number;
    f.shadowDecisions = nums[at + SHADOW_DECISIONS] as number;
    f.domain = this.textId(refs[r] as number);
    f.agent = this.textId(refs[r + 1] as number);
    f.mode = this.textId(refs[r + 2] as number);
    f.upstream = this.upstreamId(refs[r + 3] as number);
    f.tools = this.toolsId(refs[r + 4] as number);
    f.sites = this.sitesIdOf(i);
    f.surprised = (flags & SURPRISED_SAID) !== 0 && (flags & SURPRISED) !== 0;
    f.hasFlowLog = (flags & HAS_FLOW_LOG) !== 0;
    f.hasConfirmLog = (flags & HAS_CONFIRM_LOG) !== 0;
    return true;
  }

  private idsIn(ids: SharedValueIds): void {
    this.ids = ids;
    this.textIds = new Int32Array(this.p.table.length).fill(UNSET);
    this.upstreamIds = new Int32Array(this.p.upstreams.length).fill(UNSET);
    this.toolIds = new Int32Array(this.toolSets.length).fill(UNSET);
    this.siteIds = new Int32Array(this.p.siteLists.length).fill(UNSET);
  }

  private sitesIdOf(i: number): number {
    const j = this.sites.get(i);
    if (j === undefined) return NONE;
    let id = this.siteIds[j] as number;
    if (id === UNSET) this.siteIds[j] = id = this.ids!.internSites(this.p.siteLists[j] as SessionSiteCount[]);
    return id;
  }

  private textId(j: number): number {
    if (j === -1) return NONE;
    let id = this.textIds[j] as number;
    if (id === UNSET) this.textIds[j] = id = this.ids!.internText(this.p.table[j] as string);
    return id;
  }

  private upstreamId(j: number): number {
    if (j === -1) return NONE;
    let id = this.upstreamIds[j] as number;
    if (id === UNSET) this.upstreamIds[j] = id = this.ids!.internUpstream(this.p.upstreams[j] as UpstreamView);
    return id;
  }

  private toolsId(j: number): number {
    if (j === -1) return NONE;
    let id = this.toolIds[j] as number;
    if (id === UNSET) this.toolIds[j] = id = this.ids!.internTools(this.toolSets[j] as string[]);
    return id;
  }

  /** A view into the batch's buffer: the index copies it into its arena. */
  private filter(i: number): Uint8Array | null {
    const f = this.filterAt[i] as number;
    return f === -1 ? null : this.p.filters.subarray(f * FILTER_BYTES, (f + 1) * FILTER_BYTES);
  }

  private outcome(i: number, base: string | null): Result<IndexedSummary> {
    const { kind, nums, refs, text, table, upstreams } = this.p;
    const t = (this.textAt[i] as number) + 1;
    if (kind[i] === UNREADABLE) return { ok: false, message: text[t] as string };
    const at = i * N;
    const r = i * R;
    const flags = nums[at + FLAGS] as number;
    const sites = this.sites.get(i);
    const flowSites = sites === undefined ? undefined : this.p.siteLists[sites];
    const upstream = refs[r + 3] as number;
    const summary: IndexedSummary = {
      key: '',
      path: '',
      session_id: flags & ID_IS_BASE ? baseOf(base) : (text[t] as string),
      domain: tableString(table, refs[r] as number),
      agent: tableString(table, refs[r + 1] as number),
      started_unix_ms: nums[at + STARTED] as number,
      duration_ms: nums[at + DURATION] as number,
      mode: tableString(table, refs[r + 2] as number) as IndexedSummary['mode'],
      tool_calls: nums[at + TOOL_CALLS] as number,
      llm_turns: nums[at + LLM_TURNS] as number,
      errors: nums[at + ERRORS] as number,
      flow_lookups: nums[at + FLOW_LOOKUPS] as number,
      hand_backs: nums[at + HAND_BACKS] as number,
      shadow_lookups: nums[at + SHADOW_LOOKUPS] as number,
      writes: nums[at + WRITES] as number,
      upstream: upstream === -1 ? null : (upstreams[upstream] as UpstreamView),
      size_bytes: nums[at + SIZE] as number,
      has_flow_log: (flags & HAS_FLOW_LOG) !== 0,
      has_confirm_log: (flags & HAS_CONFIRM_LOG) !== 0,
      tools_called: this.toolSets[refs[r + 4] as number] as string[],
      shadow_decisions: nums[at + SHADOW_DECISIONS] as number,
    };
    if (flags & SURPRISED_SAID) summary.surprised = (flags & SURPRISED) !== 0;
    if (flowSites) summary.flow_sites = flowSites;
    return { ok: true, value: summary };
  }
}

/** A log's key base, which a saved summary's session id is said to be. */
function baseOf(base: string | null): string {
  if (base === null) throw new Error('a summary whose session id is its log\'s key base was read without it');
  return base;
}

/** A batch's shared string (-1: null). */
const tableString = (table: readonly string[], j: number): string | null => (j === -1 ? null : (table[j] as string));

/** The stamps of packed answers alone, in order (checking saved entries needs nothing else of them). */
export function packedStamps(bytes: Uint8Array): string[] {
  const { kind, text } = deserialize(bytes) as PackedIndex;
  const out: string[] = [];
  let t = 0;
  for (let i = 0; i < kind.length; i++) {
    out.push(text[t++] as string);
    if (kind[i] === SUMMARY || kind[i] === UNREADABLE) t++;
  }
  return out;
}
