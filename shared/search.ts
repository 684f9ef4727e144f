// Search inside every session's logs: the query of GET /api/search and its answer. The phrase is literal and
// matched case-insensitively against the decoded string values of each line, never against keys or escapes.
import * as v from 'valibot';
import { KeySchema, UnixMsSchema, dayRangeInOrder, queryDay, queryInt, queryPick } from './common.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX, SEARCH_TEXT_MIN } from './limits.ts';
import { SESSION_MODES, SessionModeSchema, type SessionMode } from './sessions.ts';

/** What part of a session a hit is in. */
export const SEARCH_WHERE = ['arguments', 'result', 'conversation', 'flow', 'other'] as const;
export const SearchWhereSchema = v.picklist(SEARCH_WHERE);
export type SearchWhere = v.InferOutput<typeof SearchWhereSchema>;

/** Which parts to search: everything, calls' arguments, calls' results, or the conversation. */
export const SEARCH_IN = ['all', 'arguments', 'results', 'conversation'] as const;
export type SearchIn = (typeof SEARCH_IN)[number];

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Where the next page starts: how many logs in scope were searched, and the last session answered. */
export const SearchCursorSchema = v.object({ searched: count, started_unix_ms: UnixMsSchema, session_id: v.string() });
export type SearchCursor = v.InferOutput<typeof SearchCursorSchema>;

const cursorParam = v.optional(
  v.pipe(
    v.string('cursor: give it once, as the next_cursor of the previous answer'),
    v.transform((s): SearchCursor | null | false => {
      if (s === '') return null;
      const m = /^(\d{1,15})\.(\d{1,15})\.(.+)$/s.exec(s);
      return m ? { searched: Number(m[1]), started_unix_ms: Number(m[2]), session_id: m[3]! } : false;
    }),
    v.check((c) => c !== false, 'cursor: not a next_cursor this console gave; start the search again without it'),
    v.transform((c) => (c === false ? null : c)),
  ),
  '',
);

/** A cursor as the answer sends it (parsed back by the query). */
export const cursorText = (c: SearchCursor): string => `${c.searched}.${c.started_unix_ms}.${c.session_id}`;

const optionalName = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name}: give it once, as text`),
      v.transform((s) => (s === '' ? null : s)),
    ),
    '',
  );


/** GET /api/search?text=&domain=&mode=&from=&to=&tool=&in=&limit=&cursor= (empty values mean no filter). */
export const SearchQuerySchema = v.pipe(
  v.object({
    text: v.pipe(
      v.string(`text: give the phrase to find, ${SEARCH_TEXT_MIN} to ${SEARCH_TEXT_MAX} characters`),
      v.check(
        (s) => [...s].length >= SEARCH_TEXT_MIN && [...s].length <= SEARCH_TEXT_MAX,
        (issue) => `text: ${[...String(issue.input)].length} characters; give ${SEARCH_TEXT_MIN} to ${SEARCH_TEXT_MAX}`,
      ),
    ),
    domain: optionalName('domain'),
    mode: queryPick<SessionMode, SessionMode | null>('mode', SESSION_MODES, null),
    from: queryDay('from'),
    to: queryDay('to'),
    tool: optionalName('tool'),
    in: v.pipe(
      queryPick('in', SEARCH_IN, 'all'),
      v.transform((s): SearchIn => s ?? 'all'),
    ),
    limit: v.pipe(
      queryInt('limit', SEARCH_LIMIT_DEFAULT),
      v.check((n) => n >= 1, 'limit: at least 1 session a page'),
      v.transform((n) => Math.min(n, SEARCH_LIMIT_MAX)),
    ),
    cursor: cursorParam,
  }),
  v.check(dayRangeInOrder, 'from: the first day must not be after the last (to)'),
);
export type SearchQuery = v.InferOutput<typeof SearchQuerySchema>;
export type SearchQueryInput = v.InferInput<typeof SearchQuerySchema>;

export const SearchHitSchema = v.object({
  /** The line in its log, from 1 (the flow or confirmation log's line for `where: "flow"`). */
  line: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The tool whose call or answer holds the match; null elsewhere. */
  tool: v.nullable(v.string()),
  where: SearchWhereSchema,
  /** Decoded text around the match. */
  snippet: v.string(),
  /** The match inside the snippet: [start, end) in UTF-16 code units. */
  at: v.tuple([count, count]),
});
export type SearchHit = v.InferOutput<typeof SearchHitSchema>;

export const SearchItemSchema = v.object({
  key: KeySchema,
  session_id: v.string(),
  domain: v.nullable(v.string()),
  mode: SessionModeSchema,
  started_unix_ms: UnixMsSchema,
  /** The first hits in log order (the session log's, then its flow and confirmation logs'). */
  hits: v.array(SearchHitSchema),
  /** How many more hits the session holds than `hits` sends. */
  more_hits: count,
});
export type SearchItem = v.InferOutput<typeof SearchItemSchema>;

export const SearchAnswerSchema = v.object({
  text: v.string(),
  /** Logs in scope searched up to this answer (this page and the pages before it). */
  searched: count,
  /** Logs in scope (the filters applied). */
  total: count,
  /** Sessions with hits, newest first. */
  items: v.array(SearchItemSchema),
  /** Continue from here; null once every log in scope is searched. */
  next_cursor: v.nullable(v.string()),
  took_ms: count,
});
export type SearchAnswer = v.InferOutput<typeof SearchAnswerSchema>;
