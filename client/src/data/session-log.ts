// A session's raw log as the Raw log tab reads it: its events and (for a big log) its JSON lines a page at a
// time, and the whole text when a view needs it (JSON lines of a small log, or an event opened).
import { createSignal, type Accessor } from 'solid-js';
import { errorText } from '../../../shared/error-text.ts';
import type { LogLine } from '../../../shared/session-views.ts';
import { ApiError } from '../api/client.ts';
import { getSessionEventLine, getSessionEvents, getSessionLines, getSessionRaw } from '../api/endpoints.ts';
import { createApiResource } from './createApiResource.ts';
import { createPages } from './createPages.ts';

const EVENTS_PAGE = 500;
const LINES_PAGE = 200;

/** The events, following the session and its count of events (which grows while it is written). */
export const createSessionEvents = (key: Accessor<string>, count: Accessor<number>) =>
  createPages(
    () => ({ key: key(), count: count() }),
    (s, offset, signal) => getSessionEvents(s.key, offset, EVENTS_PAGE, { signal }),
    'Could not load more events',
  );

export const createSessionLines = (key: Accessor<string>) =>
  createPages(key, (k, offset, signal) => getSessionLines(k, offset, LINES_PAGE, { signal }), 'Could not load more lines');

/** The whole log's text while `wanted`, wrapped so an empty log is still data. */
export const createSessionRaw = (key: Accessor<string>, wanted: Accessor<boolean>) =>
  createApiResource(
    () => wanted() && key(),
    async (k, signal) => ({ text: await getSessionRaw(k, { signal }) }),
  );

export const PAGE_SIZES = { events: EVENTS_PAGE, lines: LINES_PAGE };

/** An event's line as the raw view shows it: the line, none matching, or why it could not be read. */
export type EventLine = { line: LogLine } | { line: null } | { error: string };

/**
 * The lines of the events opened in a big log's raw view, each asked for alone when its event first opens
 * (GET /api/sessions/:key/events/:i/line): a 100 MB log is never fetched whole for one line.
 */
export function createEventLines(key: Accessor<string>) {
  const [lines, setLines] = createSignal<ReadonlyMap<number, EventLine>>(new Map());
  let forKey = key();
  const asked = new Set<number>();
  const put = (i: number, value: EventLine) => setLines((old) => new Map(old).set(i, value));
  return {
    /** The event's line; undefined while it loads. */
    lineOf: (i: number): EventLine | undefined => (forKey === key() ? lines().get(i) : undefined),
    load(i: number): void {
      if (forKey !== key()) {
        forKey = key();
        asked.clear();
        setLines(new Map());
      }
      if (asked.has(i)) return;
      asked.add(i);
      const k = forKey;
      getSessionEventLine(k, i).then(
        (line) => k === forKey && put(i, { line }),
        (e: unknown) => {
          if (k !== forKey) return;
          // A 404 says no line matches: shown as such, not as a failure.
          if (e instanceof ApiError && e.status === 404) put(i, { line: null });
          else {
            asked.delete(i);
            put(i, { error: errorText(e) });
          }
        },
      );
    },
  };
}

export type EventLines = ReturnType<typeof createEventLines>;
