// GET /api/search over the scope: batches of sessions, newest first, searched in the pool with at most one
// batch per worker in flight, answered in order. The first batches are small so a common phrase's first
// page comes soon; later ones grow so a rare phrase pays little per batch. A session whose search filter
// rules the phrase out is not sent (it is searched: it holds no match). The search stops once a page of
// sessions matched, every session in scope was searched, or the asker went away.
import type { SearchAnswer, SearchCursor, SearchItem, SearchQuery } from '../../shared/search.ts';
import { cursorText } from '../../shared/search.ts';
import type { SessionEntry } from '../store/session-index.ts';
import type { State } from '../state.ts';
import type { BatchHit } from '../workers/tasks/search.ts';
import { type Scope, filesOf, filterRulesOut, searchScope } from './scope.ts';
import { phraseBits } from './trigram-filter.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

const FIRST_BATCH = 16;
const BATCH_MAX = 1024;
/** Batches the filter empties are answered at once: the event loop is let go this often meanwhile. */
const TURN_MS = 8;

/** Where to resume: the first session in scope after the cursor's (sessions come newest first). */
function resumeAt({ entries, started }: Scope, cursor: SearchCursor | null): number {
  if (cursor === null) return 0;
  // Newest first, ties by session id descending (engine/session-list.ts: newestFirst).
  const before = (i: number) =>
    started[i]! > cursor.started_unix_ms || (started[i] === cursor.started_unix_ms && entries[i]!.session_id >= cursor.session_id);
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A session's hit as answered; null when its log stopped reading since the scope was taken. */
function item(e: SessionEntry, hit: BatchHit): SearchItem | null {
  const s = e.summary;
  if (s === null) return null;
  return { key: s.key, session_id: s.session_id, domain: s.domain, mode: s.mode, started_unix_ms: s.started_unix_ms, hits: hit.hits, more_hits: hit.more_hits };
}

/** The search's answer; `gone()` says the asker went away (the rest is not searched). */
export async function searchSessions(state: State, query: SearchQuery, gone: () => boolean): Promise<SearchAnswer> {
  const began = performance.now();
  const scope = await searchScope(state, query);
  const { entries, started } = scope;
  const first = resumeAt(scope, query.cursor);
  // `searched` counts on from the page before, though sessions may have come or gone since.
  const searchedBefore = (query.cursor?.searched ?? 0) - first;
  const items: SearchItem[] = [];
  let next = first;
  let size = FIRST_BATCH;
  let done = first; // sessions before this index are searched and answered
  const bits = phraseBits(query.text);
  const ruledOut = bits === null ? () => false : filterRulesOut(state, bits);
  // Per batch: where it ends in the scope, and the places of the sessions sent (the others are ruled out).
  // Its size counts the sessions it spans, sent or not: a batch of only matching sessions would weigh more
  // than the first page needs, and a page's batches left running delay the next search.
  const inFlight: { end: number; sent: number[]; result: Promise<BatchHit[]> }[] = [];
  const send = () => {
    const end = Math.min(entries.length, next + size);
    const sent: number[] = [];
    for (let i = next; i < end; i++) if (!ruledOut(entries[i]!)) sent.push(i);
    size = Math.min(BATCH_MAX, size * 2);
    next = end;
    const sessions = sent.map((i) => filesOf(entries[i]!));
    const result: Promise<BatchHit[]> = sessions.length === 0 ? Promise.resolve([]) : state.pool.run('searchBatchTask', { text: query.text, tool: query.tool, in: query.in, sessions });
    inFlight.push({ end, sent, result });
  };
  let full = false;
  let turnStarted = performance.now();
  while (!full && !gone()) {
    while (inFlight.length < state.pool.threads && next < entries.length) send();
    const batch = inFlight.shift();
    if (!batch) break;
    if (performance.now() - turnStarted > TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
    const hits = await batch.result;
    if (batch.sent.length > 0) turnStarted = performance.now();
    done = batch.end;
    for (const hit of hits) {
      const at = batch.sent[hit.index]!;
      const found = item(entries[at]!, hit);
      if (found !== null) items.push(found);
      if (items.length === query.limit) {
        done = at + 1;
        full = true;
        break;
      }
    }
  }
  // Answers of batches past a full page are dropped; their workers finish them.
  for (const rest of inFlight) rest.result.catch(() => undefined);
  const last = entries[done - 1];
  const more = done < entries.length && last !== undefined;
  return {
    text: query.text,
    searched: Math.max(0, searchedBefore + done),
    total: entries.length,
    items,
    next_cursor: more ? cursorText({ searched: Math.max(0, searchedBefore + done), started_unix_ms: started[done - 1]!, session_id: last.session_id }) : null,
    took_ms: Math.round(performance.now() - began),
  };
}
