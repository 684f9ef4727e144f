// The index's summaries in columns: a session's figures are one row of typed arrays, and the texts sessions
// share (domain, agent, mode, upstream, tools called, a flow log's counts by site) ids into tables, so the
// heap holds no object per summary and a million sessions fit the memory target; a summary object is made
// only when a page or a view asks for one.
import type { SessionMode, SessionSiteCount, SessionSummary, UpstreamView } from '../../shared/sessions.ts';
import type { IndexedSummary } from '../engine/sessions.ts';
import { upstreamId } from '../engine/tallies.ts';
import { IdText } from './id-text.ts';
import { NONE, ValueTable } from './value-table.ts';

// A row's numbers, as doubles: a log's header and lines may give any number.
const STARTED = 0;
const DURATION = 1;
const SIZE = 2;
const TOOL_CALLS = 3;
const LLM_TURNS = 4;
const ERRORS = 5;
const FLOW_LOOKUPS = 6;
const HAND_BACKS = 7;
const SHADOW_LOOKUPS = 8;
const WRITES = 9;
const SHADOW_DECISIONS = 10;
const MTIME = 11;
const INDEXED_AT = 12;
const NUMS = 13;

// A row's ids (NONE for none).
const DOMAIN = 0;
const AGENT = 1;
const MODE = 2;
const UPSTREAM = 3;
const TOOLS = 4;
const SITES = 5;
const FILTER = 6;
const REFS = 7;

const READABLE = 1;
const SURPRISED = 2;
const HAS_FLOW_LOG = 4;
const HAS_CONFIRM_LOG = 8;

/** A row's companion files, as the tree last found them (not the summary's own `has_*_log`). */
export const FLOW_LOG_BESIDE = 1;
export const CONFIRM_LOG_BESIDE = 2;

const FIRST_ROWS = 1_024;
const NO_TOOLS: readonly string[] = Object.freeze([]);

const toolsId = (names: readonly string[]): string => names.join('\u0000');

/** A flow log's counts by site, each name's length before it, so no name can make two lists look alike. */
export function sitesId(sites: readonly SessionSiteCount[]): string {
  let id = '';
  for (const x of sites) id += `${x.lookups},${x.hand_backs},${x.shadow},${x.site.length}:${x.site}`;
  return id;
}

/** A summary's figures as a row holds them: its shared values as ids of the index's tables (SharedValueIds). */
export interface SummaryFigures {
  started: number;
  duration: number;
  size: number;
  toolCalls: number;
  llmTurns: number;
  errors: number;
  flowLookups: number;
  handBacks: number;
  shadowLookups: number;
  writes: number;
  shadowDecisions: number;
  domain: number;
  agent: number;
  mode: number;
  upstream: number;
  tools: number;
  sites: number;
  surprised: boolean;
  hasFlowLog: boolean;
  hasConfirmLog: boolean;
  sessionId: string;
}

/** Figures to fill in, reused. */
export const emptyFigures = (): SummaryFigures => ({
  started: 0,
  duration: 0,
  size: 0,
  toolCalls: 0,
  llmTurns: 0,
  errors: 0,
  flowLookups: 0,
  handBacks: 0,
  shadowLookups: 0,
  writes: 0,
  shadowDecisions: 0,
  domain: NONE,
  agent: NONE,
  mode: NONE,
  upstream: NONE,
  tools: NONE,
  sites: NONE,
  surprised: false,
  hasFlowLog: false,
  hasConfirmLog: false,
  sessionId: '',
});

/** The ids of shared values in the index's tables, each value kept from its first ask (SummaryColumns). */
export interface SharedValueIds {
  internText(s: string | null): number;
  internTools(names: readonly string[]): number;
  internUpstream(u: UpstreamView | null): number;
  internSites(sites: readonly SessionSiteCount[]): number;
}

/** The values behind those ids, as a save writes them out (index-wire.ts: IndexPacker.addFigures). */
export interface SharedValues {
  textAt(id: number): string | null;
  upstreamAt(id: number): UpstreamView | null;
  toolsAt(id: number): readonly string[];
  sitesAt(id: number): readonly SessionSiteCount[] | null;
}

export class SummaryColumns implements SharedValueIds, SharedValues {
  /** setSummary's figures, reused. */
  private readonly scratch = emptyFigures();
  private nums = new Float64Array(FIRST_ROWS * NUMS);
  private refs = new Int32Array(FIRST_ROWS * REFS);
  private flags = new Uint8Array(FIRST_ROWS);
  private companions = new Uint8Array(FIRST_ROWS);
  /** Why a row's log does not read, by row (only failing rows have one). */
  private readonly errors = new Map<number, string>();
  /**
   * A row's session id when it is not its log's key base, by row: it almost always is (the engine names a log
   * by it), so a map of the few, not an array of a slot per row.
   */
  private readonly ids = new Map<number, string>();
  /** Every readable row's session id, lowercased, for `q`. */
  private readonly idText = new IdText();
  private rows = 0;
  private readonly free: number[] = [];

  /** Domains, agents and modes. */
  private readonly texts = new ValueTable<string>((s) => s);
  /** `texts`, lowercased, for `q`, by id. */
  private readonly lowered: string[] = [];
  private readonly upstreams = new ValueTable<UpstreamView>(upstreamId);
  private readonly toolSets = new ValueTable<readonly string[]>(toolsId, (names) => Object.freeze([...names]));
  /** The tools of a set, lowercased and joined by newlines, for `q`, by id. */
  private readonly toolsText: string[] = [];
  /** A session's counts by site arrive as a list of its own: found by their text, not by identity. */
  private readonly siteLists = new ValueTable<readonly SessionSiteCount[]>(sitesId, (sites) => sites, false);

  /** A row for a new entry: unreadable, no filter. */
  take(): number {
    const row = this.free.pop() ?? this.rows++;
    if (row >= this.flags.length) this.grow();
    // Plain loops: `fill` over a few elements costs more in its call than in its writes.
    const n = row * NUMS;
    for (let i = n; i < n + NUMS; i++) this.nums[i] = 0;
    const r = row * REFS;
    for (let i = r; i < r + REFS; i++) this.refs[i] = NONE;
    this.flags[row] = 0;
    this.companions[row] = 0;
    this.ids.delete(row);
    return row;
  }

  release(row: number): void {
    this.ids.delete(row);
    this.idText.clear(row);
    this.errors.delete(row);
    this.free.push(row);
  }

  /** Room for `count` more rows at once: a restart knows how many logs its saved index lists. */
  reserve(count: number): void {
    // A little more: the logs that came since the save.
    const rows = this.rows - this.free.length + count + (count >> 4);
    if (rows > this.flags.length) this.grow(rows);
  }

  private grow(rows = Math.ceil(this.flags.length * 1.5)): void {
    const nums = new Float64Array(rows * NUMS);
    nums.set(this.nums);
    const refs = new Int32Array(rows * REFS);
    refs.set(this.refs);
    const flags = new Uint8Array(rows);
    flags.set(this.flags);
    const companions = new Uint8Array(rows);
    companions.set(this.companions);
    this.nums = nums;
    this.refs = refs;
    this.flags = flags;
    this.companions = companions;
  }

  /** Store a summary in `row`; `base`: its log's key base (its session id is kept only when it differs). */
  setSummary(row: number, s: IndexedSummary, base: string): void {
    const f = this.scratch;
    f.started = s.started_unix_ms;
    f.duration = s.duration_ms;
    f.size = s.size_bytes;
    f.toolCalls = s.tool_calls;
    f.llmTurns = s.llm_turns;
    f.errors = s.errors;
    f.flowLookups = s.flow_lookups;
    f.handBacks = s.hand_backs;
    f.shadowLookups = s.shadow_lookups;
    f.writes = s.writes;
    f.shadowDecisions = s.shadow_decisions;
    f.domain = this.internText(s.domain);
    f.agent = this.internText(s.agent);
    f.mode = this.internText(s.mode);
    f.upstream = this.internUpstream(s.upstream);
    f.tools = this.internTools(s.tools_called);
    f.sites = s.flow_sites === undefined ? NONE : this.internSites(s.flow_sites);
    f.surprised = s.surprised === true;
    f.hasFlowLog = s.has_flow_log;
    f.hasConfirmLog = s.has_confirm_log;
    f.sessionId = s.session_id;
    this.setFigures(row, f, base);
  }

  /** Store a summary given as figures whose shared values are ids of this index's tables already (a saved index's). */
  setFigures(row: number, f: SummaryFigures, base: string): void {
    const n = row * NUMS;
    const nums = this.nums;
    nums[n + STARTED] = f.started;
    nums[n + DURATION] = f.duration;
    nums[n + SIZE] = f.size;
    nums[n + TOOL_CALLS] = f.toolCalls;
    nums[n + LLM_TURNS] = f.llmTurns;
    nums[n + ERRORS] = f.errors;
    nums[n + FLOW_LOOKUPS] = f.flowLookups;
    nums[n + HAND_BACKS] = f.handBacks;
    nums[n + SHADOW_LOOKUPS] = f.shadowLookups;
    nums[n + WRITES] = f.writes;
    nums[n + SHADOW_DECISIONS] = f.shadowDecisions;
    const r = row * REFS;
    const refs = this.refs;
    refs[r + DOMAIN] = f.domain;
    refs[r + AGENT] = f.agent;
    refs[r + MODE] = f.mode;
    refs[r + UPSTREAM] = f.upstream;
    refs[r + TOOLS] = f.tools;
    refs[r + SITES] = f.sites;
    this.flags[row] = READABLE | (f.surprised ? SURPRISED : 0) | (f.hasFlowLog ? HAS_FLOW_LOG : 0) | (f.hasConfirmLog ? HAS_CONFIRM_LOG : 0);
    if (f.sessionId === base) this.ids.delete(row);
    else this.ids.set(row, f.sessionId);
    this.idText.set(row, f.sessionId);
    this.errors.delete(row);
  }

  /** A readable row's figures, its shared values as ids of this index's tables (what setFigures stored). */
  readFigures(row: number, into: SummaryFigures, base: string): void {
    const n = row * NUMS;
    const nums = this.nums;
    into.started = nums[n + STARTED]!;
    into.duration = nums[n + DURATION]!;
    into.size = nums[n + SIZE]!;
    into.toolCalls = nums[n + TOOL_CALLS]!;
    into.llmTurns = nums[n + LLM_TURNS]!;
    into.errors = nums[n + ERRORS]!;
    into.flowLookups = nums[n + FLOW_LOOKUPS]!;
    into.handBacks = nums[n + HAND_BACKS]!;
    into.shadowLookups = nums[n + SHADOW_LOOKUPS]!;
    into.writes = nums[n + WRITES]!;
    into.shadowDecisions = nums[n + SHADOW_DECISIONS]!;
    const r = row * REFS;
    const refs = this.refs;
    into.domain = refs[r + DOMAIN]!;
    into.agent = refs[r + AGENT]!;
    into.mode = refs[r + MODE]!;
    into.upstream = refs[r + UPSTREAM]!;
    into.tools = refs[r + TOOLS]!;
    into.sites = refs[r + SITES]!;
    const flags = this.flags[row]!;
    into.surprised = (flags & SURPRISED) !== 0;
    into.hasFlowLog = (flags & HAS_FLOW_LOG) !== 0;
    into.hasConfirmLog = (flags & HAS_CONFIRM_LOG) !== 0;
    into.sessionId = this.ids.get(row) ?? base;
  }

  textAt(id: number): string | null {
    return this.texts.at(id);
  }

  upstreamAt(id: number): UpstreamView | null {
    return this.upstreams.at(id);
  }

  toolsAt(id: number): readonly string[] {
    return this.toolSets.at(id) ?? NO_TOOLS;
  }

  sitesAt(id: number): readonly SessionSiteCount[] | null {
    return this.siteLists.at(id);
  }

  /** The row's log does not read (`why`): no summary. */
  setUnreadable(row: number, why: string): void {
    this.nums.fill(0, row * NUMS, row * NUMS + SHADOW_DECISIONS + 1);
    const r = row * REFS;
    this.refs.fill(NONE, r, r + FILTER);
    this.flags[row] = 0;
    this.ids.delete(row);
    this.idText.clear(row);
    this.errors.set(row, why);
  }

  error(row: number): string | null {
    return this.errors.get(row) ?? null;
  }

  companion(row: number, which: number): boolean {
    return (this.companions[row]! & which) !== 0;
  }

  setCompanion(row: number, which: number, there: boolean): void {
    this.companions[row] = there ? this.companions[row]! | which : this.companions[row]! & ~which;
  }

  /** The id of a domain, agent or mode (null: NONE), kept from here on. */
  internText(s: string | null): number {
    const id = this.texts.idOf(s);
    if (id !== NONE && this.lowered[id] === undefined) this.lowered[id] = s!.toLowerCase();
    return id;
  }

  /** The id of a set of tools called (none: NONE), kept from here on. */
  internTools(names: readonly string[]): number {
    if (names.length === 0) return NONE;
    const id = this.toolSets.idOf(names);
    if (this.toolsText[id] === undefined) this.toolsText[id] = names.join('\n').toLowerCase();
    return id;
  }

  internUpstream(u: UpstreamView | null): number {
    return this.upstreams.idOf(u);
  }

  internSites(sites: readonly SessionSiteCount[]): number {
    return this.siteLists.idOf(sites);
  }

  readable(row: number): boolean {
    return (this.flags[row]! & READABLE) !== 0;
  }

  started(row: number): number {
    return this.nums[row * NUMS + STARTED]!;
  }

  sizeBytes(row: number): number {
    return this.nums[row * NUMS + SIZE]!;
  }

  toolCalls(row: number): number {
    return this.nums[row * NUMS + TOOL_CALLS]!;
  }

  flowLookups(row: number): number {
    return this.nums[row * NUMS + FLOW_LOOKUPS]!;
  }

  shadowDecisions(row: number): number {
    return this.nums[row * NUMS + SHADOW_DECISIONS]!;
  }

  mtimeMs(row: number): number {
    return this.nums[row * NUMS + MTIME]!;
  }

  setMtimeMs(row: number, ms: number): void {
    this.nums[row * NUMS + MTIME] = ms;
  }

  indexedAt(row: number): number {
    return this.nums[row * NUMS + INDEXED_AT]!;
  }

  setIndexedAt(row: number, ms: number): void {
    this.nums[row * NUMS + INDEXED_AT] = ms;
  }

  filterSlot(row: number): number {
    return this.refs[row * REFS + FILTER]!;
  }

  setFilterSlot(row: number, slot: number): void {
    this.refs[row * REFS + FILTER] = slot;
  }

  /** The row's id of domain, agent or mode. */
  domainId(row: number): number {
    return this.refs[row * REFS + DOMAIN]!;
  }

  modeId(row: number): number {
    return this.refs[row * REFS + MODE]!;
  }

  domain(row: number): string | null {
    return this.texts.at(this.domainId(row));
  }

  agent(row: number): string | null {
    return this.texts.at(this.refs[row * REFS + AGENT]!);
  }

  mode(row: number): SessionMode {
    return this.texts.at(this.modeId(row)) as SessionMode;
  }

  upstream(row: number): UpstreamView | null {
    return this.upstreams.at(this.refs[row * REFS + UPSTREAM]!);
  }

  toolsCalled(row: number): readonly string[] {
    return this.toolSets.at(this.refs[row * REFS + TOOLS]!) ?? NO_TOOLS;
  }

  flowSites(row: number): readonly SessionSiteCount[] | null {
    return this.siteLists.at(this.refs[row * REFS + SITES]!);
  }

  sessionId(row: number, base: string): string {
    return this.ids.get(row) ?? base;
  }

  /** The id of a domain, agent or mode some session has, or NONE. */
  textId(s: string): number {
    return this.texts.find(s);
  }

  /**
   * `q`: the rows whose session id, domain, agent or a tool called, lowercased, contains `needle` (lowercase,
   * not empty). The ids are searched at once (id-text.ts); a shared text is tested once, by its id.
   */
  matcher(needle: string): RowMatch {
    const ids = new Uint8Array(this.flags.length);
    this.idText.mark(needle, ids);
    // By id + 1: NONE (-1) is slot 0, which matches nothing.
    const texts = new Uint8Array(this.lowered.length + 1);
    this.lowered.forEach((lower, id) => (texts[id + 1] = lower.includes(needle) ? 1 : 0));
    const tools = new Uint8Array(this.toolsText.length + 1);
    this.toolsText.forEach((lower, id) => (tools[id + 1] = lower.includes(needle) ? 1 : 0));
    const shared = texts.includes(1) || tools.includes(1);
    return new RowMatch(ids, shared ? texts : null, tools, this.refs);
  }

  /** A view of rows, reused: `at` points it at one. */
  view(): SummaryRow {
    return new SummaryRow(this);
  }

  /** One of a row's numbers (a field of this module's). */
  numberAt(row: number, field: number): number {
    return this.nums[row * NUMS + field]!;
  }

  /** One of a row's flags (a flag of this module's). */
  flagAt(row: number, flag: number): boolean {
    return (this.flags[row]! & flag) !== 0;
  }

  /** The row's wire summary, made now (one literal in wire order, so every summary shares one shape). */
  summary(row: number, key: string, rel: string, base: string): SessionSummary {
    const n = row * NUMS;
    const nums = this.nums;
    const flags = this.flags[row]!;
    return {
      key,
      path: rel,
      session_id: this.sessionId(row, base),
      domain: this.domain(row),
      agent: this.agent(row),
      started_unix_ms: nums[n + STARTED]!,
      duration_ms: nums[n + DURATION]!,
      mode: this.mode(row),
      tool_calls: nums[n + TOOL_CALLS]!,
      llm_turns: nums[n + LLM_TURNS]!,
      errors: nums[n + ERRORS]!,
      flow_lookups: nums[n + FLOW_LOOKUPS]!,
      hand_backs: nums[n + HAND_BACKS]!,
      shadow_lookups: nums[n + SHADOW_LOOKUPS]!,
      surprised: (flags & SURPRISED) !== 0,
      writes: nums[n + WRITES]!,
      upstream: this.upstream(row),
      size_bytes: nums[n + SIZE]!,
      has_flow_log: (flags & HAS_FLOW_LOG) !== 0,
      has_confirm_log: (flags & HAS_CONFIRM_LOG) !== 0,
    };
  }
}

/** Which rows a `q` matches (SummaryColumns.matcher), for the rows as they are while one list is made. */
export class RowMatch {
  constructor(
    private readonly ids: Uint8Array,
    /** Null when no shared text matches: then only ids do. */
    private readonly texts: Uint8Array | null,
    private readonly tools: Uint8Array,
    private readonly refs: Int32Array,
  ) {}

  has(row: number): boolean {
    if (this.ids[row] === 1) return true;
    if (this.texts === null) return false;
    const r = row * REFS;
    const refs = this.refs;
    return this.texts[refs[r + DOMAIN]! + 1] === 1 || this.texts[refs[r + AGENT]! + 1] === 1 || this.tools[refs[r + TOOLS]! + 1] === 1;
  }
}

/**
 * A row read as a summary, in place: the list's filters and the tallies look at every session through one of
 * these instead of an object each.
 */
export class SummaryRow implements SessionSummary {
  key = '';
  path = '';
  private base = '';
  private row = 0;

  constructor(private readonly cols: SummaryColumns) {}

  at(row: number, key: string, rel: string, base: string): this {
    this.row = row;
    this.key = key;
    this.path = rel;
    this.base = base;
    return this;
  }

  get session_id(): string {
    return this.cols.sessionId(this.row, this.base);
  }
  get domain(): string | null {
    return this.cols.domain(this.row);
  }
  get agent(): string | null {
    return this.cols.agent(this.row);
  }
  get started_unix_ms(): number {
    return this.cols.numberAt(this.row, STARTED);
  }
  get duration_ms(): number {
    return this.cols.numberAt(this.row, DURATION);
  }
  get mode(): SessionMode {
    return this.cols.mode(this.row);
  }
  get tool_calls(): number {
    return this.cols.numberAt(this.row, TOOL_CALLS);
  }
  get llm_turns(): number {
    return this.cols.numberAt(this.row, LLM_TURNS);
  }
  get errors(): number {
    return this.cols.numberAt(this.row, ERRORS);
  }
  get flow_lookups(): number {
    return this.cols.numberAt(this.row, FLOW_LOOKUPS);
  }
  get hand_backs(): number {
    return this.cols.numberAt(this.row, HAND_BACKS);
  }
  get shadow_lookups(): number {
    return this.cols.numberAt(this.row, SHADOW_LOOKUPS);
  }
  get surprised(): boolean {
    return this.cols.flagAt(this.row, SURPRISED);
  }
  get writes(): number {
    return this.cols.numberAt(this.row, WRITES);
  }
  get upstream(): UpstreamView | null {
    return this.cols.upstream(this.row);
  }
  get size_bytes(): number {
    return this.cols.numberAt(this.row, SIZE);
  }
  get has_flow_log(): boolean {
    return this.cols.flagAt(this.row, HAS_FLOW_LOG);
  }
  get has_confirm_log(): boolean {
    return this.cols.flagAt(this.row, HAS_CONFIRM_LOG);
  }
}
