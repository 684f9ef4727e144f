// Running sums over sessions, by domain, upstream, UTC day and mode: everything the overview's totals, days
// and domains, the savings and the servers' session counts add up. The index keeps one current as sessions
// come and go (store/session-index.ts), so those answers read a few hundred cells rather than every summary
// (at 100k sessions each pass cost 20–120 ms of the event loop, again after every new session); a filtered
// view tallies the sessions it chose. The arithmetic on top is the same either way.
import { DAY_MS } from '../../shared/limits.ts';
import type { SessionMode, SessionSummary, UpstreamView } from '../../shared/sessions.ts';

/** What a tally reads of a session. */
export type Tallied = Pick<
  SessionSummary,
  'domain' | 'upstream' | 'mode' | 'started_unix_ms' | 'tool_calls' | 'flow_lookups' | 'hand_backs' | 'errors' | 'llm_turns'
>;

/** The sessions of one domain, upstream, UTC day and mode, summed. */
export interface TallyCell {
  readonly domain: string | null;
  readonly upstream: UpstreamView | null;
  /** Days since the epoch (UTC) of the sessions' start. */
  readonly day: number;
  readonly mode: SessionMode;
  sessions: number;
  tool_calls: number;
  flow_lookups: number;
  hand_backs: number;
  errors: number;
  llm_turns: number;
  /** Decisions their flow logs hold in shadow (an index-only figure; 0 where not given). */
  shadow_decisions: number;
  /** The newest start among them (NaN while it must be found again: the newest one left). */
  last: number;
}

/** Finds the newest start among a cell's sessions, for a cell whose newest session left. */
export type NewestOf = (cell: TallyCell) => number;

/** An upstream's identity: the same for equal upstreams, whatever object holds them. */
export function upstreamId(u: UpstreamView | null): string {
  if (u === null) return '';
  // Each word prefixed by its length: unambiguous whatever the words hold, and cheaper than JSON.stringify
  // (the index interns every summary's upstream by it).
  return u.kind === 'http' ? `h${u.url}` : `s${u.command.map((w) => `${w.length}:${w}`).join('')}`;
}

/** Cells remembered by the identity of their parts (add): a day's sessions fill a handful of cells in turn. */
const RECENT_CELLS = 16;

export class Tallies {
  private readonly byKey = new Map<string, TallyCell>();
  /** Cells last added to: found by comparing parts, before a key text is made and looked up. */
  private readonly recent: (TallyCell | null)[] = new Array<TallyCell | null>(RECENT_CELLS).fill(null);
  private nextRecent = 0;
  /** Ids of upstream objects already met (the index shares one object per upstream). */
  private readonly ids = new WeakMap<UpstreamView, string>();
  private stale = false;

  /** `newestOf` is needed only by a tally that sessions leave (the index's). */
  constructor(private readonly newestOf: NewestOf | null = null) {}

  /** A tally of these sessions. */
  static of(sessions: Iterable<Tallied>): Tallies {
    const t = new Tallies();
    for (const s of sessions) t.add(s, 0);
    return t;
  }

  /** Whether a cell holds this session. */
  holds(cell: TallyCell, s: Tallied): boolean {
    return cell.domain === s.domain && cell.mode === s.mode && Math.floor(s.started_unix_ms / DAY_MS) === cell.day && this.idOf(s.upstream) === this.idOf(cell.upstream);
  }

  idOf(u: UpstreamView | null): string {
    if (u === null) return '';
    let id = this.ids.get(u);
    if (id === undefined) {
      id = upstreamId(u);
      this.ids.set(u, id);
    }
    return id;
  }

  private keyOf(s: Tallied): string {
    return `${s.domain === null ? '\u0001' : `=${s.domain}`}\u0000${this.idOf(s.upstream)}\u0000${Math.floor(s.started_unix_ms / DAY_MS)}\u0000${s.mode}`;
  }

  add(s: Tallied, shadowDecisions: number): void {
    const cell = this.recentCell(s) ?? this.cellFor(s);
    cell.sessions += 1;
    cell.tool_calls += s.tool_calls;
    cell.flow_lookups += s.flow_lookups;
    cell.hand_backs += s.hand_backs;
    cell.errors += s.errors;
    cell.llm_turns += s.llm_turns;
    cell.shadow_decisions += shadowDecisions;
    // A stale newest stays stale: the one that left may have been newer than this one.
    if (!Number.isNaN(cell.last)) cell.last = Math.max(cell.last, s.started_unix_ms);
  }

  /** A recent cell whose parts are these very values (an equal upstream in another object is looked up by key). */
  private recentCell(s: Tallied): TallyCell | null {
    const day = Math.floor(s.started_unix_ms / DAY_MS);
    for (const cell of this.recent) {
      if (cell !== null && cell.day === day && cell.domain === s.domain && cell.mode === s.mode && cell.upstream === s.upstream) return cell;
    }
    return null;
  }

  private cellFor(s: Tallied): TallyCell {
    const key = this.keyOf(s);
    let cell = this.byKey.get(key);
    if (cell === undefined) {
      cell = {
        domain: s.domain,
        upstream: s.upstream,
        day: Math.floor(s.started_unix_ms / DAY_MS),
        mode: s.mode,
        sessions: 0,
        tool_calls: 0,
        flow_lookups: 0,
        hand_backs: 0,
        errors: 0,
        llm_turns: 0,
        shadow_decisions: 0,
        last: -Infinity,
      };
      this.byKey.set(key, cell);
    }
    this.recent[this.nextRecent] = cell;
    this.nextRecent = (this.nextRecent + 1) % RECENT_CELLS;
    return cell;
  }

  /** Take away a session added before, with the figures it was added with. */
  remove(s: Tallied, shadowDecisions: number): void {
    const key = this.keyOf(s);
    const cell = this.byKey.get(key);
    if (cell === undefined) throw new Error(`no tally holds the session started at ${s.started_unix_ms}`);
    cell.sessions -= 1;
    if (cell.sessions === 0) {
      this.byKey.delete(key);
      const at = this.recent.indexOf(cell);
      if (at !== -1) this.recent[at] = null;
      return;
    }
    cell.tool_calls -= s.tool_calls;
    cell.flow_lookups -= s.flow_lookups;
    cell.hand_backs -= s.hand_backs;
    cell.errors -= s.errors;
    cell.llm_turns -= s.llm_turns;
    cell.shadow_decisions -= shadowDecisions;
    if (s.started_unix_ms === cell.last) {
      if (this.newestOf === null) throw new Error('this tally cannot find a newest session again');
      cell.last = Number.NaN;
      this.stale = true;
    }
  }

  /** Every cell, each with its newest start known. */
  cells(): Iterable<TallyCell> {
    if (this.stale) {
      for (const cell of this.byKey.values()) if (Number.isNaN(cell.last)) cell.last = this.newestOf!(cell);
      this.stale = false;
    }
    return this.byKey.values();
  }

  /** The decisions held in shadow, over every session. */
  shadowDecisions(): number {
    let n = 0;
    for (const c of this.byKey.values()) n += c.shadow_decisions;
    return n;
  }

  /** How many sessions a domain has and when the newest started. */
  domain(name: string): { count: number; last_unix_ms: number | null } {
    let count = 0;
    let last: number | null = null;
    for (const c of this.cells()) {
      if (c.domain !== name) continue;
      count += c.sessions;
      last = last === null ? c.last : Math.max(last, c.last);
    }
    return { count, last_unix_ms: last };
  }

  /** `domain` of every domain at once, for a list of many (one pass instead of one per name). */
  domains(): Map<string, { count: number; last_unix_ms: number | null }> {
    const out = new Map<string, { count: number; last_unix_ms: number | null }>();
    for (const c of this.cells()) {
      if (c.domain === null) continue;
      const d = out.get(c.domain);
      if (d === undefined) out.set(c.domain, { count: c.sessions, last_unix_ms: c.last });
      else {
        d.count += c.sessions;
        d.last_unix_ms = d.last_unix_ms === null ? c.last : Math.max(d.last_unix_ms, c.last);
      }
    }
    return out;
  }
}

/** A tally of `input`, or `input` when it is one. */
export const tallied = (input: Tallies | Iterable<Tallied>): Tallies => (input instanceof Tallies ? input : Tallies.of(input));
