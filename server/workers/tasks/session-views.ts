// Worker tasks of the session page's light views: the outline pass over a whole log, one call's payload
// and find over every payload. Each answers plain data, or why it could not ({ ok: false, message }).
import { callPayload, callResultText, type CallPayloadInput, eventLineIndex, findInCalls, logLines, sessionIndex, type OutlineIndex } from '../../engine/session/views.ts';
import type { CallPlace, SessionFiles } from '../../engine/sessions.ts';
import { callLines } from '../../engine/session/call-lines.ts';
import type { CallPayload, FindField, LogLine } from '../../../shared/session-views.ts';
import { SESSION_LINE_SHOW_BYTES } from '../../../shared/limits.ts';
import { type Result, attempt } from '../../result.ts';
import { lineAtOffset } from '../../engine/session/decision-line.ts';


/** The outline of one session, with where its calls lie and its events. */
export function sessionIndexTask(files: SessionFiles): Result<OutlineIndex> {
  return attempt(() => sessionIndex(files));
}

/** One call's payload as JSON text: serialized here, a big answer crosses as one string, not a cloned tree. */
export function sessionCallTask(input: CallPayloadInput): Result<string> {
  return attempt(() => JSON.stringify(callPayload(input) satisfies CallPayload));
}

export function sessionCallTextTask(input: { path: string; place: CallPlace }): Result<string | null> {
  return attempt(() => callResultText(input.path, input.place));
}

export function sessionFindTask(input: { path: string; places: CallPlace[]; q: string }): Result<{ n: number; fields: FindField[] }[]> {
  return attempt(() => findInCalls(input.path, input.places, input.q));
}

/** The line each call's request is on (engine/session/call-lines.ts). */
export function sessionCallLinesTask(input: { path: string; places: CallPlace[] }): Result<(number | null)[]> {
  return attempt(() => callLines(input.path, input.places));
}

/** A page of the log's lines, for the raw view of a big log. */
export function sessionLinesTask(input: { path: string; offset: number; limit: number }): Result<{ total: number; items: LogLine[] }> {
  return attempt(() => logLines(input.path, input.offset, input.limit, SESSION_LINE_SHOW_BYTES));
}

/** The line an event came from (see eventLineIndex), as the raw view shows a line; null when none matches. */
export function sessionEventLineTask(input: { path: string; t_ms: number; from: string; k: number }): Result<LogLine | null> {
  return attempt(() => {
    const index = eventLineIndex(input.path, input.t_ms, input.from, input.k);
    return index === null ? null : (logLines(input.path, index, 1, SESSION_LINE_SHOW_BYTES).items[0] ?? null);
  });
}

/** The number (from 1) of the log line at a byte offset: where a call's request is, for a link to it. */
export function sessionLineAtTask(input: { path: string; offset: number }): Result<number> {
  return attempt(() => lineAtOffset(input.path, input.offset));
}
