// The session page's light views of one session (issue 10), beside GET /api/sessions/:key, which stays as
// the spec defines it: the outline (every call in short, no payloads), one call's payload, find inside the
// session, and the raw log's events a page at a time.
import * as v from 'valibot';
import { JsonValueSchema, queryInt } from './common.ts';
import { SESSION_EVENTS_LIMIT_DEFAULT, SESSION_EVENTS_LIMIT_MAX, SESSION_FIND_MAX_CHARS } from './limits.ts';
import {
  CallBySchema,
  ContextMessageSchema,
  FlowDecisionSchema,
  FlowRunSchema,
  SessionSummarySchema,
  TimelineEventSchema,
  ToolInfoSchema,
  ToolKindSchema,
  TurnSchema,
} from './sessions.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A call without its payloads: what the timeline, the minimap and the filters need. */
export const CallOutlineSchema = v.object({
  /** Index into the outline's calls: the call's address for its payload (ids may repeat). */
  n: count,
  id: v.string(),
  by: CallBySchema,
  tool: v.string(),
  kind: ToolKindSchema,
  t_ms: count,
  result_t_ms: v.nullable(count),
  latency_ms: v.nullable(count),
  ok: v.nullable(v.boolean()),
  turn: v.nullable(count),
  after: v.nullable(v.string()),
  decision: v.nullable(count),
  /** The arguments as compact JSON, cut at OUTLINE_SHORT_CHARS code points. */
  arguments_short: v.string(),
  /** The answer's text, cut the same way; null when no answer came. */
  result_short: v.nullable(v.string()),
  /** UTF-8 size of the arguments' compact JSON. */
  arguments_bytes: count,
  /** UTF-8 size of the answer's whole text; null when no answer came. */
  result_bytes: v.nullable(count),
});
export type CallOutline = v.InferOutput<typeof CallOutlineSchema>;

/** GET /api/sessions/:key/outline: the session without payloads or events; small whatever the log's size. */
export const SessionOutlineSchema = v.object({
  summary: SessionSummarySchema,
  header: JsonValueSchema,
  tools: v.array(ToolInfoSchema),
  turns: v.array(TurnSchema),
  calls: v.array(CallOutlineSchema),
  context: v.array(ContextMessageSchema),
  decisions: v.array(FlowDecisionSchema),
  runs: v.array(FlowRunSchema),
  confirmations: v.array(JsonValueSchema),
  /** How many events the raw log's event view pages through. */
  events: count,
  /** Payloads larger than this many bytes come cut unless asked for whole. */
  display_limit_bytes: count,
});
export type SessionOutline = v.InferOutput<typeof SessionOutlineSchema>;

/** A call's answer, whole or cut at the display limit. */
export const CallResultSchema = v.object({
  /** The first answer was an error. */
  error: v.boolean(),
  /** The answer's content as text (session-format §3.4), cut at the display limit unless `all`. */
  text: v.string(),
  /** `text` parsed as JSON when it is JSON, whole and at most the display limit; else null. */
  json: JsonValueSchema,
  /** UTF-8 size of the whole text. */
  bytes: count,
  cut: v.boolean(),
});
export type CallResult = v.InferOutput<typeof CallResultSchema>;

/** GET /api/sessions/:key/calls/:n: one call's arguments and answer, read from the log when opened. */
export const CallPayloadSchema = v.object({
  n: count,
  id: v.string(),
  tool: v.string(),
  arguments: JsonValueSchema,
  /** Null when no answer came. */
  result: v.nullable(CallResultSchema),
});
export type CallPayload = v.InferOutput<typeof CallPayloadSchema>;

/** The call's index, from the path. */
export const CallParamsSchema = v.object({
  n: v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'call: a whole number, 0 or more (the call\'s n in the outline)'), v.transform(Number)),
});

/** ?all=1 asks for the whole answer, past the display limit. */
export const CallQuerySchema = v.object({
  all: v.optional(
    v.pipe(
      v.string(),
      v.picklist(['0', '1'], 'all: 1 for the whole answer, 0 (the default) for at most the display limit'),
      v.transform((s) => s === '1'),
    ),
    '0',
  ),
});

export const FindFieldSchema = v.picklist(['tool', 'arguments', 'result', 'text']);
export type FindField = v.InferOutput<typeof FindFieldSchema>;

/** One match: a call (by its n) or a conversation message (by its index in context). */
export const FindMatchSchema = v.variant('kind', [
  v.object({ kind: v.literal('call'), n: count, fields: v.array(FindFieldSchema) }),
  v.object({ kind: v.literal('message'), index: count, fields: v.array(FindFieldSchema) }),
]);
export type FindMatch = v.InferOutput<typeof FindMatchSchema>;

/** GET /api/sessions/:key/find?q=: every call and message whose text holds q, ignoring case, in log order. */
export const SessionFindSchema = v.object({
  q: v.string(),
  matches: v.array(FindMatchSchema),
});
export type SessionFind = v.InferOutput<typeof SessionFindSchema>;

export const SessionFindQuerySchema = v.object({
  q: v.pipe(
    v.optional(v.string('q: give it once, as text'), ''),
    v.check((s) => s.trim() !== '', 'q: the text to find is missing'),
    v.check((s) => [...s].length <= SESSION_FIND_MAX_CHARS, `q: at most ${SESSION_FIND_MAX_CHARS} characters`),
  ),
});

/** GET /api/sessions/:key/events?offset=&limit=: the raw log's events in short form, a page at a time. */
export const SessionEventsSchema = v.object({
  total: count,
  offset: count,
  items: v.array(TimelineEventSchema),
});
export type SessionEvents = v.InferOutput<typeof SessionEventsSchema>;

export const SessionEventsQuerySchema = v.object({
  offset: queryInt('offset', 0),
  limit: v.pipe(
    queryInt('limit', SESSION_EVENTS_LIMIT_DEFAULT),
    v.check((n) => n > 0, 'limit: at least 1'),
    v.transform((n) => Math.min(n, SESSION_EVENTS_LIMIT_MAX)),
  ),
});

/** One line of the log as the raw view pages through it: cut at SESSION_LINE_SHOW_BYTES for display. */
export const LogLineSchema = v.object({
  /** The line's number in the file, from 1. */
  n: count,
  text: v.string(),
  /** UTF-8 size of the whole line. */
  bytes: count,
  cut: v.boolean(),
});
export type LogLine = v.InferOutput<typeof LogLineSchema>;

/** GET /api/sessions/:key/lines?offset=&limit=: the log's lines a page at a time (offset from 0; blank lines count). */
export const SessionLinesSchema = v.object({
  total: count,
  offset: count,
  items: v.array(LogLineSchema),
});
export type SessionLines = v.InferOutput<typeof SessionLinesSchema>;

export const SessionLinesQuerySchema = SessionEventsQuerySchema;

/** GET /api/sessions/:key/events/:i/line: the log line event `i` (from 0) came from; 404 when none matches. */
export const EventParamsSchema = v.object({
  i: v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'event: a whole number, 0 or more (its index in the events list)'), v.transform(Number)),
});

/**
 * GET /api/sessions/:key/call-lines: per call of the outline (by n), the log's line (from 1) its request is
 * on; null when the request is not in the log. Addresses one call as `/sessions/<key>?line=<N>`.
 */
export const CallLinesSchema = v.object({ lines: v.array(v.nullable(count)) });
export type CallLines = v.InferOutput<typeof CallLinesSchema>;
