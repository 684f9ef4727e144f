// The sessions a search looks at: the one place search reaches the index, through the summaries the list
// reads, filtered as the list filters them (domain, mode, UTC days), newest first, and how a session's search
// filter, where the index's is current, is looked at: here when the filters are in memory, else by the
// search workers in the filters' file (filter-reads.ts).
import type { SearchQuery } from '../../shared/search.ts';
import { sessionSummaries } from '../data/sessions.ts';
import { startedWithin } from '../engine/session-filter.ts';
import type { State } from '../state.ts';
import { MemoryFilters } from '../store/search-filters.ts';
import type { SessionEntry } from '../store/session-index.ts';
import type { SearchedFiles } from './session-search.ts';
import { filterMayHold } from './trigram-filter.ts';

/**
 * The sessions in scope, newest first: the index entries, and their starts as they were when the scope was
 * taken (the order a cursor resumes in). A summary is made only for a session answered (100k made per
 * search held the event loop and fed the collector).
 */
export interface Scope {
  entries: readonly SessionEntry[];
  started: Float64Array;
}

/** A session's files, made when its batch is sent. */
export const filesOf = (e: SessionEntry): SearchedFiles => ({ path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog });

/**
 * How the search filters rule out a phrase of these trigram bits (null: it has none, nothing is ruled out).
 * Asked when a batch is made, as a session's files may have changed since the scope was taken. In memory:
 * whether a session is ruled out, the bits first (most sessions are settled by them, and only those ruled out
 * need the feeder's word that the filter is current). In a file: where each session's filter is read, for the
 * workers.
 */
export type FilterCheck =
  | { kind: 'none' }
  | { kind: 'here'; ruledOut: (e: SessionEntry) => boolean }
  | { kind: 'workers'; file: string; bits: Uint32Array; at: (e: SessionEntry) => number };

export function filterCheck(state: State, bits: Uint32Array | null): FilterCheck {
  const { store } = state;
  const arena = store.sessions.filters;
  if (bits === null) return { kind: 'none' };
  if (arena instanceof MemoryFilters) {
    return { kind: 'here', ruledOut: (e) => e.filterSlot >= 0 && !filterMayHold(arena.bytes, arena.at(e.filterSlot), bits) && store.searchFilterAt(e) >= 0 };
  }
  return arena.file === null ? { kind: 'none' } : { kind: 'workers', file: arena.file, bits, at: (e) => store.searchFilterAt(e) };
}

/** Readable sessions matching the query's filters, newest first (the list's order). */
export async function searchScope(state: State, query: Pick<SearchQuery, 'domain' | 'mode' | 'from' | 'to'>): Promise<Scope> {
  const { entries } = await sessionSummaries(state);
  const within = startedWithin(query);
  const all = !query.domain && !query.mode && !query.from && !query.to;
  // A copy either way: the index's own list moves as sessions come while the search runs.
  const kept = all ? entries.slice() : entries.filter((e) => (!query.domain || e.domain === query.domain) && (!query.mode || e.mode === query.mode) && within(e));
  return { entries: kept, started: Float64Array.from(kept, (e) => e.started_unix_ms) };
}
