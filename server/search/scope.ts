// The sessions a search looks at: the one place search reaches the index, through the summaries the list
// reads, filtered as the list filters them (domain, mode, UTC days), newest first.
import type { SearchQuery } from '../../shared/search.ts';
import type { SessionSummary } from '../../shared/sessions.ts';
import { sessionSummaries } from '../data/sessions.ts';
import { startedWithin } from '../engine/session-filter.ts';
import type { State } from '../state.ts';
import type { SearchedFiles } from './session-search.ts';

export interface ScopedSession {
  summary: SessionSummary;
  /** Made when the session's batch is sent: 100k paths built up front would cost every search. */
  files: () => SearchedFiles;
}

/** Readable sessions matching the query's filters, newest first (the list's order). */
export async function searchScope(state: State, query: Pick<SearchQuery, 'domain' | 'mode' | 'from' | 'to'>): Promise<ScopedSession[]> {
  const { entries } = await sessionSummaries(state);
  const within = startedWithin(query);
  const out: ScopedSession[] = [];
  for (const e of entries) {
    const s = e.summary;
    if ((query.domain && s.domain !== query.domain) || (query.mode && s.mode !== query.mode) || !within(s)) continue;
    out.push({ summary: s, files: () => ({ path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog }) });
  }
  return out;
}
