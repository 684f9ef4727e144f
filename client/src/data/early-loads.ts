// A page's first load begun as the app starts, beside /api/meta and the page's own code rather than after
// both: a session opened by its address (a link, a reload) asks for its outline at once. Only the address the
// app opened on is loaded early, once; the page takes the load when it renders (createApiResource's `early`).
// A load begun before the event stream opened is done again when it opens, like any other (api/events.ts).
import { getSessionOutline } from '../api/endpoints.ts';
import { streamOpens } from '../api/events.ts';
import type { SessionOutline } from '../../../shared/session-views.ts';

/** A load begun early, and the stream's opens when it began. */
export interface EarlyLoad<T> {
  value: Promise<T>;
  opens: number;
}

/** A load not taken within this long is dropped (the page was left, or never came). */
const EARLY_TAKE_MS = 10_000;

let sessionOutline: { key: string; load: EarlyLoad<SessionOutline>; at: number } | null = null;

/** The session key of a session page's path (`/sessions/:key`), or null for any other path. */
export function sessionKeyOfPath(pathname: string): string | null {
  const m = /^\/sessions\/([^/]+)\/?$/.exec(pathname);
  if (m === null) return null;
  let key: string;
  try {
    key = decodeURIComponent(m[1] as string);
  } catch {
    return null;
  }
  // `compare` is a page of its own, not a session.
  return key === 'compare' ? null : key;
}

/** Begins the first load of the page at `pathname`, when it is one that gains from it. */
export function startEarlyLoads(pathname: string): void {
  const key = sessionKeyOfPath(pathname);
  if (key === null) return;
  const value = getSessionOutline(key);
  // The page reports the load's failure when it takes it; one never taken must not be an unhandled rejection.
  value.catch(() => {});
  sessionOutline = { key, load: { value, opens: streamOpens() }, at: Date.now() };
}

/** The early load of this session's outline, once (later loads are the page's own). */
export function takeEarlyOutline(key: string): EarlyLoad<SessionOutline> | undefined {
  const early = sessionOutline;
  if (early === null || early.key !== key) return undefined;
  sessionOutline = null;
  return Date.now() - early.at <= EARLY_TAKE_MS ? early.load : undefined;
}
