// The session page's view over its outline: the timeline's entries narrowed by the page's filters, the find
// matches in display order (for "n of m"), the find state as URL parameters, and the minimap's marks, placed
// to scale over the session's time. Pure: the page and its tests share it.
import type { CallOutline, FindMatch, SessionOutline } from '../../../shared/session-views.ts';
import type { ContextMessage, FlowDecision, FlowRun } from '../../../shared/sessions.ts';
import { buildTimeline, type CallItem, type TimelineEntry } from './timeline.ts';

export type IndexedMessage = ContextMessage & { index: number };
export type Entry = TimelineEntry<CallOutline, FlowDecision, FlowRun, IndexedMessage>;
export type Item = CallItem<CallOutline, FlowDecision, FlowRun>;
export type ShowMode = 'all' | 'calls' | 'conversation' | 'failed';

export function timelineOf(o: Pick<SessionOutline, 'calls' | 'decisions' | 'runs' | 'turns' | 'context'>): Entry[] {
  return buildTimeline({ calls: o.calls, decisions: o.decisions, runs: o.runs, turns: o.turns, context: o.context.map((m, index) => ({ ...m, index })) });
}

/** The find bar's state; every field is in the URL, so a link opens the same view. */
export interface FindState {
  /** The text to find ('' for none). */
  q: string;
  /** Only calls of this tool (the agent's, or a lookup after it). */
  tool: string | null;
  /** Only failed or unanswered calls. */
  failed: boolean;
  /** Only calls the flow decided something after (lookups, hand-backs, shadow decisions). */
  flow: boolean;
  /** The current match, from 0. */
  match: number;
}

export const NO_FIND: FindState = { q: '', tool: null, failed: false, flow: false, match: 0 };

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function readFindState(params: Record<string, string | string[] | undefined>): FindState {
  const match = Number(one(params.match) ?? '1');
  return {
    q: one(params.find) ?? '',
    tool: one(params.tool) || null,
    failed: one(params.failed) === '1',
    flow: one(params.flow) === '1',
    // One-based in the URL, as a person reads it.
    match: Number.isInteger(match) && match > 0 ? match - 1 : 0,
  };
}

/** The URL parameters of a find state (undefined removes one). */
export function findParams(s: FindState): Record<string, string | undefined> {
  return {
    find: s.q === '' ? undefined : s.q,
    tool: s.tool ?? undefined,
    failed: s.failed ? '1' : undefined,
    flow: s.flow ? '1' : undefined,
    match: s.q === '' || s.match === 0 ? undefined : String(s.match + 1),
  };
}

export const filtering = (s: Pick<FindState, 'tool' | 'failed' | 'flow'>) => s.tool !== null || s.failed || s.flow;

const lookupsOf = (i: Item): CallOutline[] => [...i.decisions.flatMap((d) => (d.lookup ? [d.lookup] : [])), ...i.extraLookups];

function keeps(i: Item, s: Pick<FindState, 'tool' | 'failed' | 'flow'>): boolean {
  const lookups = lookupsOf(i);
  if (s.tool !== null && i.call.tool !== s.tool && !lookups.some((l) => l.tool === s.tool)) return false;
  if (s.failed && i.call.ok === true && !lookups.some((l) => l.ok !== true)) return false;
  if (s.flow && i.decisions.length === 0 && i.extraLookups.length === 0) return false;
  return true;
}

/** The entries the page shows: the "Show" choice, then the find bar's filters (which drop the conversation). */
export function filterEntries(entries: Entry[], show: ShowMode, s: Pick<FindState, 'tool' | 'failed' | 'flow'>): Entry[] {
  let list: Entry[];
  switch (show) {
    case 'calls':
      list = entries.filter((e) => e.type === 'turn' && e.calls.length > 0);
      break;
    case 'conversation':
      list = entries.filter((e) => e.type === 'message');
      break;
    case 'failed':
      list = entries.flatMap((e) => (e.type === 'turn' ? [{ ...e, calls: e.calls.filter((c) => c.call.ok !== true) }] : [])).filter((e) => e.calls.length > 0);
      break;
    default:
      list = entries;
  }
  if (!filtering(s)) return list;
  const out: Entry[] = [];
  for (const e of list) {
    if (e.type !== 'turn') continue;
    const calls = e.calls.filter((c) => keeps(c, s));
    if (calls.length > 0) out.push(calls.length === e.calls.length ? e : { ...e, calls });
  }
  return out;
}

/** A match as the page shows it: the entry that holds it, and what it is (`c<n>` a call, `m<i>` a message). */
export interface Target {
  entry: number;
  key: string;
}

export const callKey = (n: number) => `c${n}`;
export const messageKey = (i: number) => `m${i}`;

/** The matches among the shown entries, in display order: each call before the lookups under it. */
export function findTargets(entries: Entry[], matches: FindMatch[]): Target[] {
  const hit = new Set(matches.map((m) => (m.kind === 'call' ? callKey(m.n) : messageKey(m.index))));
  const out: Target[] = [];
  entries.forEach((e, entry) => {
    if (e.type === 'message') {
      const key = messageKey(e.message.index);
      if (hit.has(key)) out.push({ entry, key });
      return;
    }
    for (const item of e.calls) {
      for (const c of [item.call, ...lookupsOf(item)]) {
        const key = callKey(c.n);
        if (hit.has(key)) out.push({ entry, key });
      }
    }
  });
  return out;
}

export type MarkKind = 'call' | 'lookup' | 'shadow' | 'back' | 'error' | 'match';
export const MARK_KINDS: MarkKind[] = ['call', 'lookup', 'shadow', 'back', 'error', 'match'];

export interface Mark {
  kind: MarkKind;
  /** Where in the session, from 0 (its start) to 1 (its last entry). */
  at: number;
  /** The entry to scroll to. */
  entry: number;
}

/** Marks closer than this (a fraction of the strip) merge: a strip is a few hundred pixels tall. */
const MARK_STEP = 1 / 400;

/** The minimap's marks, placed by time over the session and merged per kind where they would overlap. */
export function minimapMarks(entries: Entry[], durationMs: number, targets: Target[]): Mark[] {
  const span = Math.max(durationMs, ...entries.map((e) => e.t), 1);
  const seen = new Set<string>();
  const out: Mark[] = [];
  const add = (kind: MarkKind, t: number, entry: number) => {
    const at = Math.min(1, Math.max(0, t / span));
    const id = `${kind}${Math.round(at / MARK_STEP)}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ kind, at, entry });
  };
  const timeOfKey = new Map<string, number>();
  entries.forEach((e, entry) => {
    if (e.type === 'message') {
      timeOfKey.set(messageKey(e.message.index), e.t);
      return;
    }
    for (const item of e.calls) {
      const c = item.call;
      timeOfKey.set(callKey(c.n), c.t_ms);
      add(c.ok === false ? 'error' : 'call', c.t_ms, entry);
      const after = c.result_t_ms ?? c.t_ms;
      for (const d of item.decisions) {
        if (d.decision.action === 'hand_back') add('back', after, entry);
        else if (d.decision.shadow || !d.lookup) add('shadow', after, entry);
      }
      for (const l of lookupsOf(item)) {
        timeOfKey.set(callKey(l.n), l.t_ms);
        add(l.ok === false ? 'error' : 'lookup', l.t_ms, entry);
      }
    }
  });
  for (const t of targets) add('match', timeOfKey.get(t.key) ?? entries[t.entry]?.t ?? 0, t.entry);
  return out;
}

/** The shown entry nearest a point of the session (a fraction of its time), for a click on the minimap. */
export function entryAt(entries: Entry[], durationMs: number, at: number): number {
  if (entries.length === 0) return -1;
  const span = Math.max(durationMs, ...entries.map((e) => e.t), 1);
  const t = at * span;
  let lo = 0;
  let hi = entries.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(entries[lo - 1]!.t - t) <= Math.abs(entries[lo]!.t - t)) return lo - 1;
  return lo;
}
