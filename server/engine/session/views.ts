// The session page's light views (shared/session-views.ts), built in a worker: the outline (the detail's
// calls without payloads, plus where each call lies in the log), one call's payload read again from its
// lines, and find over every call's whole arguments and answer. Nothing here keeps a log in memory: a
// payload is read from the bytes the outline pass located.
import { closeSync, openSync, readSync } from 'node:fs';
import * as v from 'valibot';
import { SessionOutlineSchema, type CallOutline, type CallPayload, type FindField, type LogLine, type SessionOutline } from '../../../shared/session-views.ts';
import { TimelineEventSchema } from '../../../shared/sessions.ts';
import { OUTLINE_SHORT_CHARS, PAYLOAD_DISPLAY_BYTES } from '../../../shared/limits.ts';
import { type CallPlace, type MessagePlace, type SessionFiles, isErrorAnswer, outcomeText, parseOrNull, sessionDetailPlaced } from '../sessions.ts';
import { compact, cutBytes, cutChars, isObject, sortKeys } from './json.ts';

const MessagePlaceSchema = v.object({ offset: v.number(), length: v.number(), element: v.nullable(v.number()) });
const CallPlaceSchema = v.object({
  request: v.nullable(MessagePlaceSchema),
  answer: v.nullable(MessagePlaceSchema),
  result_bytes: v.nullable(v.number()),
}) satisfies v.GenericSchema<CallPlace>;

/** What the console keeps of a session for its light views: small next to the log (and spooled for a big one). */
export const OutlineIndexSchema = v.object({
  outline: SessionOutlineSchema,
  /** Where each of the outline's calls lies, by n. */
  places: v.array(CallPlaceSchema),
  events: v.array(TimelineEventSchema),
});
export type OutlineIndex = v.InferOutput<typeof OutlineIndexSchema>;

/** A one-line short form: whitespace runs read as one space, cut at OUTLINE_SHORT_CHARS code points. */
function short(text: string): string {
  // Only the head matters: a bounded prefix is collapsed, then cut.
  const head = text.length > OUTLINE_SHORT_CHARS * 4 ? text.slice(0, OUTLINE_SHORT_CHARS * 4) : text;
  const s = head.replace(/\s+/g, ' ').trim();
  const cut = cutChars(s, OUTLINE_SHORT_CHARS);
  return cut === s && head !== text ? `${s}…` : cut;
}

/**
 * The outline of one session, with the places of its calls and its events. Throws when not a session log.
 * `quick` (the default) takes plain answers without parsing them; the result is the same either way.
 */
export function sessionIndex(files: SessionFiles, quick = true): OutlineIndex {
  const { detail, places } = sessionDetailPlaced(files, quick);
  const calls: CallOutline[] = detail.calls.map((c, n) => {
    const args = compact(c.arguments);
    return {
      n,
      id: c.id,
      by: c.by,
      tool: c.tool,
      kind: c.kind,
      t_ms: c.t_ms,
      result_t_ms: c.result_t_ms,
      latency_ms: c.latency_ms,
      ok: c.ok,
      turn: c.turn,
      after: c.after,
      decision: c.decision,
      arguments_short: short(args),
      result_short: c.result_t_ms === null ? null : short(c.result_text ?? ''),
      arguments_bytes: Buffer.byteLength(args, 'utf8'),
      result_bytes: c.result_t_ms === null ? null : (places[n]?.result_bytes ?? Buffer.byteLength(c.result_text ?? '', 'utf8')),
    };
  });
  const outline: SessionOutline = {
    summary: detail.summary,
    header: detail.header,
    tools: detail.tools,
    turns: detail.turns,
    calls,
    context: detail.context,
    decisions: detail.decisions,
    runs: detail.runs,
    confirmations: detail.confirmations,
    events: detail.events.length,
    display_limit_bytes: PAYLOAD_DISPLAY_BYTES,
  };
  return { outline, places, events: detail.events };
}

/** Reads messages at their places through one open file. */
class MessageReader {
  private readonly fd: number;
  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }
  private buf = Buffer.allocUnsafe(1 << 16);
  /** The line's bytes, valid until the next read. */
  bytes(place: MessagePlace): Buffer {
    if (this.buf.length < place.length) this.buf = Buffer.allocUnsafe(Math.max(place.length, this.buf.length * 2));
    let got = 0;
    while (got < place.length) {
      const r = readSync(this.fd, this.buf, got, place.length - got, place.offset + got);
      if (r === 0) break;
      got += r;
    }
    return this.buf.subarray(0, got);
  }
  /** The line's text. */
  line(place: MessagePlace): string {
    return this.bytes(place).toString('utf8');
  }
  /** The message the place names, from the line's text. */
  message(place: MessagePlace, text = this.line(place)): Record<string, unknown> {
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      throw new Error('the log changed since the session was read: open the session again');
    }
    const m = isObject(entry) ? (place.element === null ? entry.message : Array.isArray(entry.message) ? entry.message[place.element] : undefined) : undefined;
    if (!isObject(m)) throw new Error('the log changed since the session was read: open the session again');
    return m;
  }
  close(): void {
    closeSync(this.fd);
  }
}

function argumentsOf(m: Record<string, unknown>): unknown {
  const params = m.params;
  return isObject(params) && 'arguments' in params ? sortKeys(params.arguments) : {};
}

export interface CallPayloadInput {
  path: string;
  n: number;
  id: string;
  tool: string;
  place: CallPlace;
  /** The whole answer, past the display limit. */
  all: boolean;
}

/** One call's arguments and answer, read from the log. Throws when the lines are not where they were. */
export function callPayload(input: CallPayloadInput): CallPayload {
  const { place } = input;
  const reader = new MessageReader(input.path);
  try {
    const args = place.request ? argumentsOf(reader.message(place.request)) : {};
    let result: CallPayload['result'] = null;
    if (place.answer) {
      const m = reader.message(place.answer);
      const text = outcomeText(m);
      const bytes = Buffer.byteLength(text, 'utf8');
      const cut = input.all ? { text, cut: false } : cutBytes(text, PAYLOAD_DISPLAY_BYTES);
      // Past the display limit (asked for whole) the text is all the page shows: no tree is parsed.
      const json = cut.cut || bytes > PAYLOAD_DISPLAY_BYTES ? null : parseOrNull(cut.text);
      result = { error: isErrorAnswer(m), text: cut.text, json, bytes, cut: cut.cut };
    }
    return { n: input.n, id: input.id, tool: input.tool, arguments: args, result };
  } finally {
    reader.close();
  }
}

/** A call's whole answer text, for the download; null when no answer came. */
export function callResultText(path: string, place: CallPlace): string | null {
  if (!place.answer) return null;
  const reader = new MessageReader(path);
  try {
    return outcomeText(reader.message(place.answer));
  } finally {
    reader.close();
  }
}

/** Arguments as find sees them: their compact JSON, and every key and string in it as written (unescaped). */
function argumentsText(args: unknown): string {
  const words: string[] = [compact(args)];
  const walk = (x: unknown): void => {
    if (typeof x === 'string') words.push(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (isObject(x))
      for (const [k, val] of Object.entries(x)) {
        words.push(k);
        walk(val);
      }
  };
  walk(args);
  return words.join('\n');
}

/** ASCII letters to lower case, in place. */
function lowerAscii(b: Buffer): Buffer {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c >= 0x41 && c <= 0x5a) b[i] = c + 0x20;
  }
  return b;
}

/** A query of printable ASCII without `"` or `\`: one that can be sought in a line's raw bytes. */
const RAW_SAFE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The calls whose whole arguments or answer hold `q`, ignoring case, by n with the fields that matched.
 * A line is parsed only when its bytes hold the query: for a printable-ASCII query without `"` or `\`, a
 * match in the decoded text is a match in the line's bytes too (writers escape only quotes, backslashes,
 * control characters and, some of them, non-ASCII), so most of a 100 MB log is searched as bytes (ASCII
 * letters lowered in place) and never decoded or parsed. Other queries parse every line.
 */
export function findInCalls(path: string, places: CallPlace[], q: string): { n: number; fields: FindField[] }[] {
  const needle = q.toLowerCase();
  const raw = RAW_SAFE.test(q) ? Buffer.from(needle, 'latin1') : null;
  const out: { n: number; fields: FindField[] }[] = [];
  const reader = new MessageReader(path);
  try {
    places.forEach((place, n) => {
      const fields: FindField[] = [];
      const look = (at: MessagePlace | null, field: FindField, text: (m: Record<string, unknown>) => string) => {
        if (!at) return;
        // The bytes are lowered in place, so a line that may match is read again to be parsed.
        if (raw && lowerAscii(reader.bytes(at)).indexOf(raw) === -1) return;
        if (text(reader.message(at)).toLowerCase().includes(needle)) fields.push(field);
      };
      look(place.request, 'arguments', (m) => argumentsText(argumentsOf(m)));
      look(place.answer, 'result', outcomeText);
      if (fields.length > 0) out.push({ n, fields });
    });
  } finally {
    reader.close();
  }
  return out;
}

/** Lines [offset, offset + limit) of a log (numbered from 1, blank ones too), each cut at `show` bytes. */
export function logLines(path: string, offset: number, limit: number, show: number): { total: number; items: LogLine[] } {
  const fd = openSync(path, 'r');
  const items: LogLine[] = [];
  let total = 0;
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    // The line being read, when it is wanted: its first `show` bytes and its size.
    let head: Buffer[] = [];
    let kept = 0;
    let size = 0;
    let pos = 0;
    const want = () => total >= offset && total < offset + limit;
    const finish = () => {
      if (want()) {
        let bytes = Buffer.concat(head, kept);
        if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d && size === kept) bytes = bytes.subarray(0, bytes.length - 1);
        const whole = size === kept;
        // Back off to a character boundary when cut.
        let end = bytes.length;
        if (!whole) while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
        items.push({ n: total + 1, text: bytes.toString('utf8', 0, end), bytes: whole ? bytes.length : size, cut: !whole });
      }
      head = [];
      kept = 0;
      size = 0;
      total++;
    };
    for (;;) {
      const got = readSync(fd, chunk, 0, chunk.length, pos);
      if (got === 0) break;
      pos += got;
      let from = 0;
      while (from < got) {
        const nl = chunk.indexOf(0x0a, from);
        const end = nl === -1 || nl >= got ? got : nl;
        if (want() && kept < show) {
          const take = Math.min(end - from, show - kept);
          head.push(Buffer.from(chunk.subarray(from, from + take)));
          kept += take;
        }
        size += end - from;
        if (end === got) break;
        finish();
        from = end + 1;
      }
    }
    if (size > 0) finish();
  } finally {
    closeSync(fd);
  }
  return { total, items };
}

/** A line's `t_ms` and `from`, read from its head: the proxy writes them first, as the client's matching expects. */
const HEAD_T_MS = /"t_ms":(\d+)/;
const HEAD_FROM = /"from":"([^"\\]*)"/;
const HEAD_BYTES = 256;

/**
 * Which line of the log an event came from (0-based), matched as the page matches them when it holds the whole
 * log (client lib/json.ts `eventLines`): the k-th line with the event's (t_ms, from), or the last such line
 * when fewer (a batch line gives several events); null when none. One pass over the log that looks at the
 * first bytes of each line only, so a 100 MB log is scanned, not parsed.
 */
export function eventLineIndex(path: string, tMs: number, from: string, k: number): number | null {
  const fd = openSync(path, 'r');
  let found: number | null = null;
  let seen = 0;
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let head: Buffer[] = [];
    let kept = 0;
    let line = 0;
    let pos = 0;
    const finish = () => {
      const text = Buffer.concat(head, kept).toString('utf8');
      const t = HEAD_T_MS.exec(text);
      const f = HEAD_FROM.exec(text);
      if (t && f && Number(t[1]) === tMs && f[1] === from) {
        found = line;
        seen++;
      }
      head = [];
      kept = 0;
      line++;
    };
    for (;;) {
      const got = readSync(fd, chunk, 0, chunk.length, pos);
      if (got === 0) break;
      pos += got;
      let at = 0;
      while (at < got) {
        const nl = chunk.indexOf(0x0a, at);
        const end = nl === -1 || nl >= got ? got : nl;
        if (kept < HEAD_BYTES) {
          const take = Math.min(end - at, HEAD_BYTES - kept);
          head.push(Buffer.from(chunk.subarray(at, at + take)));
          kept += take;
        }
        if (end === got) break;
        finish();
        if (seen > k) return found;
        at = end + 1;
      }
    }
    if (kept > 0) finish();
  } finally {
    closeSync(fd);
  }
  return found;
}
