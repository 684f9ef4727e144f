// Addresses of the search: the Search all sessions page for a phrase and filters, and the session page at a hit.
import type { SearchHit } from '../../../shared/search.ts';

/** What the search page keeps in its address besides the phrase (empty or null: no filter). */
export interface SearchFilters {
  domain?: string | null;
  mode?: string | null;
  from?: string | null;
  to?: string | null;
  tool?: string | null;
  in?: string | null;
}

/** `/search?text=…` with the filters that are set. */
export function searchHref(text: string, filters: SearchFilters = {}): string {
  const q = new URLSearchParams({ text });
  for (const [name, value] of Object.entries(filters)) if (typeof value === 'string' && value !== '') q.set(name, value);
  return `/search?${q}`;
}

/** The session page with the find bar holding the phrase, at the hit's line when it is a line of the session's own log. */
export function hitHref(key: string, text: string, hit?: SearchHit): string {
  const q = new URLSearchParams();
  if (hit && hit.where !== 'flow') q.set('line', String(hit.line));
  q.set('find', text);
  return `/sessions/${encodeURIComponent(key)}?${q}`;
}
