// The sessions a search looks at: the one place search reaches the index, through the summaries the list
// reads, filtered as the list filters them (domain, mode, UTC days), newest first, with each session's
// search filter where the index's is current.
import type { SearchQuery } from '../../shared/search.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { sessionSummaries } from '../data/sessions.ts';
import { startedWithin } from '../engine/session-filter.ts';
import type { State } from '../state.ts';
import type { SearchedFiles } from './session-search.ts';
import { FILTER_BYTES } from '../store/search-filters.ts';
import type { SessionEntry } from '../store/session-index.ts';
import { filterMayHold } from './trigram-filter.ts';

export interface ScopedSession {
  summary: SessionSummary;
  /** Made when the session's batch is sent: 100k paths built up front would cost every search. */
  files: () => SearchedFiles;
  /** Its index entry, whose search filter `filterRulesOut` reads. */
  entry: SessionEntry;
}

/**
 * Whether a session's search filter rules out a phrase of these trigram bits: asked when its batch is made,
 * as its files may have changed since the scope was taken. The bits first: most sessions are settled by
 * them, and only those ruled out need the feeder's word that the filter is current.
 */
export function filterRulesOut(state: State, bits: Uint32Array): (s: ScopedSession) => boolean {
  const { store } = state;
  const arena = store.sessions.filters;
  return ({ entry: e }) => e.filterSlot >= 0 && !filterMayHold(arena.bytes, e.filterSlot * FILTER_BYTES, bits) && store.searchFilterAt(e) >= 0;
}

/** Readable sessions matching the query's filters, newest first (the list's order). */
export async function searchScope(state: State, query: Pick<SearchQuery, 'domain' | 'mode' | 'from' | 'to'>): Promise<ScopedSession[]> {
  const { entries } = await sessionSummaries(state);
  const within = startedWithin(query);
  const out: ScopedSession[] = [];
  for (const e of entries) {
    const s = e.summary;
    if ((query.domain && s.domain !== query.domain) || (query.mode && s.mode !== query.mode) || !within(s)) continue;
    out.push({ summary: s, files: () => ({ path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog }), entry: e });
  }
  return out;
}
