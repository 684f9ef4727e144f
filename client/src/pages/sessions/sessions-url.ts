// The sessions list's state is its URL: search, mode, day range, domain, agent, tool, `has`, column order and page, each change
// a history entry (Back steps through filters and pages). The top bar's domain and the URL's agree. The
// search box follows the URL 250 ms after the last key.
import { useSearchParams } from '@solidjs/router';
import { createEffect, createSignal, on, onCleanup } from 'solid-js';
import { SESSION_HAS, SESSION_SORTS, type SessionHas, type SessionMode, type SessionSort, type SortOrder } from '../../../../shared/sessions.ts';
import { sortOrderFor } from '../../components/session/SessionsTable.tsx';
import { cleanDay } from '../../components/ui/DateRange.tsx';
import { domain, setDomain } from '../../stores/domain.ts';

export type ModeChoice = 'all' | SessionMode;
const MODES: ModeChoice[] = ['all', 'served', 'shadow', 'recorded'];
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
export type Changes = Partial<Record<'q' | 'mode' | 'domain' | 'offset' | 'from' | 'to' | 'sort' | 'order' | 'since' | 'agent' | 'tool' | 'has', string | undefined>>;
const SEARCH_AFTER_MS = 250;

export function createSessionsUrl() {
  const [params, setParams] = useSearchParams();
  const p = (k: string) => one(params[k]);
  const url = {
    q: () => p('q').trim(),
    mode: (): ModeChoice => (MODES.includes(p('mode') as ModeChoice) ? (p('mode') as ModeChoice) : 'all'),
    offset: () => Math.max(0, Math.floor(Number(p('offset'))) || 0),
    from: () => cleanDay(p('from')),
    to: () => cleanDay(p('to')),
    sort: (): SessionSort => ((SESSION_SORTS as readonly string[]).includes(p('sort')) ? (p('sort') as SessionSort) : 'started'),
    order: (): SortOrder => (p('order') === 'asc' ? 'asc' : p('order') === 'desc' ? 'desc' : sortOrderFor(url.sort())),
    /** Unix ms (started at or after), from an overview figure; null without. */
    since: (): number | null => (/^\d{1,15}$/.test(p('since')) ? Number(p('since')) : null),
    agent: () => p('agent'),
    tool: () => p('tool'),
    /** The figures that must be above 0, in the list's order; unknown names are dropped. */
    has: (): SessionHas[] => SESSION_HAS.filter((h) => p('has').split(',').includes(h)),
    /** A change of filters starts again at the first page. */
    go: (changes: Changes, keepPage = false) => setParams({ ...changes, ...(keepPage ? {} : { offset: undefined }) }, { scroll: false }),
  };
  // Opening /sessions?domain=x sets the filter; choosing a domain in the top bar is a history entry here;
  // Back to another domain sets it again.
  const urlDomain = p('domain');
  if (urlDomain) setDomain(urlDomain);
  else if (domain()) setParams({ domain: domain()! }, { replace: true, scroll: false });
  createEffect(on(domain, (d) => (d ?? '') !== p('domain') && url.go({ domain: d ?? undefined }), { defer: true }));
  createEffect(on(() => p('domain'), (d) => d !== (domain() ?? '') && setDomain(d || null), { defer: true }));
  return url;
}

/** The search box's text: it goes to the URL after a pause, and Back to another search puts its words back. */
export function createSearchText(q: () => string, go: (changes: Changes) => void) {
  const [text, setText] = createSignal(q());
  createEffect(on(q, (v) => text().trim() !== v && setText(v), { defer: true }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  createEffect(
    on(
      text,
      (t) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (t.trim() !== q()) go({ q: t.trim() || undefined });
        }, SEARCH_AFTER_MS);
      },
      { defer: true },
    ),
  );
  return [text, setText] as const;
}
