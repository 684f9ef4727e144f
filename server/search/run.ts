// GET /api/search over the scope: batches of sessions, newest first (batches.ts), searched in the pool with
// at most one batch per worker in flight, answered in order. A session whose search filter rules the phrase
// out is searched without opening its files (it holds no match). The search stops once a page of sessions
// matched, every session in scope was searched, or the asker went away.
import type { SearchAnswer, SearchCursor, SearchItem, SearchQuery } from '../../shared/search.ts';
import { cursorText } from '../../shared/search.ts';
import type { SessionEntry } from '../store/session-index.ts';
import type { State } from '../state.ts';
import type { BatchHit } from '../workers/tasks/search.ts';
import { type Batch, Batches } from './batches.ts';
import { type Scope, filterCheck, searchScope } from './scope.ts';
import { phraseBits } from './trigram-filter.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Batches the filters in memory empty are answered at once: the event loop is let go this often meanwhile. */
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
  let done = first; // sessions before this index are searched and answered
  const batches = new Batches(state, query, entries, filterCheck(state, phraseBits(query.text)), first);
  const inFlight: Batch[] = [];
  let full = false;
  let turnStarted = performance.now();
  // The slots handed to the workers keep their filters until every batch sent is done (filter-slots.ts).
  const letGo = state.store.sessions.filters.hold();
  try {
    while (!full && !gone()) {
      while (inFlight.length < state.pool.threads && batches.left) inFlight.push(batches.send());
      const batch = inFlight.shift();
      if (!batch) break;
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
      const { sent, hits } = await batch.result;
      if (sent.length > 0) turnStarted = performance.now();
      done = batch.end;
      for (const hit of hits) {
        const at = sent[hit.index]!;
        const found = item(entries[at]!, hit);
        if (found !== null) items.push(found);
        if (items.length === query.limit) {
          done = at + 1;
          full = true;
          break;
        }
      }
    }
  } finally {
    // Answers of batches past a full page are dropped; their workers finish them.
    void Promise.allSettled(inFlight.map((b) => b.result)).then(letGo);
  }
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
