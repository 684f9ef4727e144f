// The session page's light views as the API serves them. Every one of them starts from `sessionIndex`, the
// one place that gets a parsed session for them: a small memo held on DataContext (`caches.outlines`, data-caches.ts) of the last few
// sessions opened, keyed by the stamps of the log and its companions as the detail cache keys its details
// (the index is small: no payloads, a few hundred bytes a call). The parse itself, and
// every read of a payload, runs in the worker pool, never on the event loop.
import { readFile } from 'node:fs/promises';
import type { FindMatch, LogLine, SessionEvents, SessionLines } from '../../shared/session-views.ts';
import * as v from 'valibot';
import { OutlineIndexSchema, type OutlineIndex } from '../engine/session/views.ts';
import { parseOrNull } from '../engine/sessions.ts';
import type { DataContext } from './data-context.ts';
import type { SessionFile } from './catalog.ts';
import { filesOf, UnreadableSession } from './sessions.ts';
import { stampNow } from '../store/stamp.ts';
import type { HeldOutline } from '../store/big-outlines.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A spooled outline as written at indexing; null when it does not read as one (then the log is parsed). Parsed,
 * checked and answered a turn of the event loop each: a big log's, at once, held requests as long as the three.
 */
async function spooledOutline(text: string): Promise<OutlineIndex | null> {
  const json = parseOrNull(text);
  await nextTurn();
  const read = v.safeParse(OutlineIndexSchema, json);
  await nextTurn();
  return read.success ? read.output : null;
}

/**
 * A big log's outline file at this stamp: the one kept; else the one being made (by the index lane after a
 * first start's cold index), waited for; else made now in the request lane and kept, so the index lane does
 * not make it again. Undefined for a log that is not big, or whose outline could not be made (it is parsed).
 */
async function bigOutline(state: OutlineContext, file: SessionFile, stamp: string): Promise<HeldOutline | undefined> {
  const { bigOutlines, bigLogBytes, sessions } = state.store;
  const held = bigOutlines.find(file.path, stamp);
  if (held) return held;
  const making = bigOutlines.beingMade(file.path, stamp);
  if (making) {
    await making;
    return bigOutlines.find(file.path, stamp);
  }
  const entry = sessions.byRel.get(file.rel);
  if (entry === undefined || entry.path !== file.path || entry.size_bytes < bigLogBytes) return undefined;
  // Kept only if the log is still as it was asked for.
  await bigOutlines.make(file.path, stamp, (out) => state.pool.run('sessionOutlineFileTask', { files: filesOf(file), out }).then((r) => (r.ok ? r.value : null)));
  return bigOutlines.find(file.path, stamp);
}

/** What the outlines are made with and kept in. */
export type OutlineContext = Pick<DataContext, 'store' | 'pool' | 'caches'>;

/** How many sessions' indexes the memo keeps: the pages open now, not the whole directory. */
const MEMO_SESSIONS = 4;

/**
 * The session's outline, the places of its calls and its events. Concurrent asks for the same session share
 * one parse. Throws UnreadableSession when the log is not a session log this engine can read.
 */
export function sessionIndex(state: OutlineContext, file: SessionFile): Promise<OutlineIndex> {
  const stamp = stampNow(file);
  const memo = state.caches.outlines;
  const held = memo.get(file.path);
  if (held && held.stamp === stamp) {
    // Most recently used last, so the oldest goes first.
    memo.delete(file.path);
    memo.set(file.path, held);
    return held.index;
  }
  const parse = () =>
    state.pool.run('sessionIndexTask', filesOf(file)).then((r) => {
      if (!r.ok) throw new UnreadableSession(r.message);
      return r.value;
    });
  // A big log's outline was made when it was indexed, at these stamps: a read of half a MB, not a pass over the log.
  const made = bigOutline(state, file, stamp).then(
    (held) => (held ? readFile(held.file, 'utf8').then(async (text) => (await spooledOutline(text)) ?? parse(), parse) : parse()),
    parse,
  );
  const index = made.then((value) =>
    // The catalogue's key and path may have moved since the parse (a clashing file appeared).
    value.outline.summary.key === file.key && value.outline.summary.path === file.rel
      ? value
      : { ...value, outline: { ...value.outline, summary: { ...value.outline.summary, key: file.key, path: file.rel } } },
  );
  memo.delete(file.path);
  memo.set(file.path, { stamp, index });
  // A failed parse is not kept: the next ask tries again.
  index.catch(() => {
    if (memo.get(file.path)?.index === index) memo.delete(file.path);
  });
  while (memo.size > MEMO_SESSIONS) memo.delete(memo.keys().next().value!);
  return index;
}

export class NoSuchCall extends Error {}
/** A payload's lines are no longer where the outline found them (the log was rewritten). */
export class PayloadMoved extends Error {}

function placeOf(index: OutlineIndex, n: number) {
  const call = index.outline.calls[n];
  const place = index.places[n];
  if (!call || !place) throw new NoSuchCall(`no call ${n}: this session has ${index.outline.calls.length} (n from 0)`);
  return { call, place };
}

/**
 * One call's payload (a CallPayload) as JSON text, cut at the display limit unless `all`: made and
 * serialized in the worker, so a big answer costs the event loop nothing but sending it. Throws NoSuchCall,
 * UnreadableSession, PayloadMoved.
 */
export async function callPayloadJson(state: DataContext, file: SessionFile, n: number, all: boolean): Promise<string> {
  const index = await sessionIndex(state, file);
  const { call, place } = placeOf(index, n);
  const r = await state.pool.run('sessionCallTask', { path: file.path, n, id: call.id, tool: call.tool, place, all });
  if (!r.ok) throw new PayloadMoved(r.message);
  return r.value;
}

/** A call's whole answer text for the download (null: no answer came). */
export async function callResultTextOf(state: DataContext, file: SessionFile, n: number): Promise<{ id: string; text: string | null }> {
  const index = await sessionIndex(state, file);
  const { call, place } = placeOf(index, n);
  const r = await state.pool.run('sessionCallTextTask', { path: file.path, place });
  if (!r.ok) throw new PayloadMoved(r.message);
  return { id: call.id, text: r.value };
}

/**
 * Find inside a session, on the server: the page holds only the outline, never the payloads (a 100 MB log's
 * answers would not fit a tab's memory, nor be searched there without freezing it), so the payloads are
 * searched where they are, in a worker process that reads them from the log; tool names and the conversation,
 * which the outline holds whole, are matched here. Matches come in log order: calls by n, then messages.
 */
export async function findInSession(state: DataContext, file: SessionFile, q: string): Promise<FindMatch[]> {
  const index = await sessionIndex(state, file);
  const needle = q.toLowerCase();
  const r = await state.pool.run('sessionFindTask', { path: file.path, places: index.places, q });
  if (!r.ok) throw new PayloadMoved(r.message);
  const inPayload = new Map(r.value.map((m) => [m.n, m.fields]));
  const out: FindMatch[] = [];
  for (const c of index.outline.calls) {
    const fields = [...(c.tool.toLowerCase().includes(needle) ? (['tool'] as const) : []), ...(inPayload.get(c.n) ?? [])];
    if (fields.length > 0) out.push({ kind: 'call', n: c.n, fields });
  }
  index.outline.context.forEach((m, i) => {
    if (m.content.toLowerCase().includes(needle)) out.push({ kind: 'message', index: i, fields: ['text'] });
  });
  return out;
}

/** The line each call's request is on, by the outline's n. */
export async function sessionCallLines(state: DataContext, file: SessionFile): Promise<(number | null)[]> {
  const index = await sessionIndex(state, file);
  const r = await state.pool.run('sessionCallLinesTask', { path: file.path, places: index.places });
  if (!r.ok) throw new PayloadMoved(r.message);
  return r.value;
}

/** A page of the raw log's events. */
export async function sessionEventsPage(state: DataContext, file: SessionFile, offset: number, limit: number): Promise<SessionEvents> {
  const { events } = await sessionIndex(state, file);
  return { total: events.length, offset, items: events.slice(offset, offset + limit) };
}

/** A page of the log's lines (read in the pool: a big log is scanned for its line breaks). */
export async function sessionLinesPage(state: DataContext, file: SessionFile, offset: number, limit: number): Promise<SessionLines> {
  const r = await state.pool.run('sessionLinesTask', { path: file.path, offset, limit });
  if (!r.ok) throw new PayloadMoved(r.message);
  return { total: r.value.total, offset, items: r.value.items };
}

/** An event of the list does not exist (its index is past the end). */
export class NoSuchEvent extends Error {}

/**
 * The log line event `i` came from, for the raw view of a big log (a small log's page matches them itself
 * over the whole text). Null when no line matches. Throws NoSuchEvent, UnreadableSession.
 */
export async function eventLine(state: DataContext, file: SessionFile, i: number): Promise<LogLine | null> {
  const { events } = await sessionIndex(state, file);
  const e = events[i];
  if (!e) throw new NoSuchEvent(`no event ${i}: this session has ${events.length} (from 0)`);
  let k = 0;
  for (let j = 0; j < i; j++) if (events[j]!.t_ms === e.t_ms && events[j]!.from === e.from) k++;
  const r = await state.pool.run('sessionEventLineTask', { path: file.path, t_ms: e.t_ms, from: e.from, k });
  if (!r.ok) throw new PayloadMoved(r.message);
  return r.value;
}
