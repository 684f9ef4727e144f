// A session's raw log as the Raw log tab reads it: its events and (for a big log) its JSON lines a page at a
// time, and the whole text when a view needs it (JSON lines of a small log, or an event opened).
import type { Accessor } from 'solid-js';
import { getSessionEvents, getSessionLines, getSessionRaw } from '../api/endpoints.ts';
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
