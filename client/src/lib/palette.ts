// The command palette's matching: an entry matches when each word of the query, lowercased, is in its
// "label detail" ("add serv" finds "Add a server"), or when the query's letters come in order at the starts
// of its words ("nlj" finds "New learn job").
import { SEARCH_TEXT_MAX, SEARCH_TEXT_MIN } from '../../../shared/limits.ts';
import { formatRelative } from './format.ts';
import { searchHref } from './search-links.ts';

export interface PaletteEntry {
  id: string;
  group: 'Pages' | 'Actions' | 'Servers' | 'Flows' | 'Sessions';
  label: string;
  detail?: string;
  mono?: boolean;
  to?: string;
  run?: () => void;
}

/** A session found, as the palette lists it: its id, then domain, agent and how long ago it started. */
export function sessionEntry(
  s: { key: string; session_id: string; domain: string | null; agent: string | null; started_unix_ms: number },
  now: number,
): PaletteEntry {
  return {
    id: `x-${s.key}`,
    group: 'Sessions',
    label: s.session_id,
    detail: [s.domain ?? 'no domain', s.agent ?? 'unknown agent', formatRelative(s.started_unix_ms, now)].join(' · '),
    mono: true,
    to: `/sessions/${encodeURIComponent(s.key)}`,
  };
}

/** The query searched inside every session's calls (the Search all sessions page), once it is long enough. */
export function searchInsideEntry(query: string): PaletteEntry[] {
  const text = query.trim();
  const n = [...text].length;
  if (n < SEARCH_TEXT_MIN || n > SEARCH_TEXT_MAX) return [];
  return [{ id: 'search-inside', group: 'Sessions', label: `Search inside calls for “${text}”`, detail: 'arguments, answers and the conversation of every session', to: searchHref(text) }];
}

export function matchesQuery(e: { label: string; detail?: string }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  const text = `${e.label} ${e.detail ?? ''}`.toLowerCase();
  const words = q.split(/\s+/);
  if (words.every((w) => text.includes(w))) return true;
  // Initials: "nlj" for "New learn job".
  if (words.length === 1) {
    const initials = e.label.toLowerCase().split(/[\s_.-]+/).filter(Boolean).map((w) => w[0]).join('');
    return q.length >= 2 && initials.includes(q);
  }
  return false;
}

/** Pages, then actions (3 without a query, 6 with one), servers (5), flows (5), then the sessions found. */
export function paletteResults(groups: { pages: PaletteEntry[]; actions: PaletteEntry[]; servers: PaletteEntry[]; flows: PaletteEntry[]; sessions: PaletteEntry[] }, query: string): PaletteEntry[] {
  const f = (list: PaletteEntry[], n: number) => list.filter((e) => matchesQuery(e, query)).slice(0, n);
  const q = query.trim() !== '';
  return [...f(groups.pages, 99), ...f(groups.actions, q ? 6 : 3), ...f(groups.servers, 5), ...f(groups.flows, 5), ...groups.sessions];
}

export function mergeDomainNames(...lists: (readonly string[])[]): string[] {
  const set = new Set<string>();
  for (const l of lists) for (const n of l) if (n) set.add(n);
  return [...set].sort((a, b) => a.localeCompare(b));
}
