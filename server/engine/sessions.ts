// A session log with its flow log and confirmation log → the session summary (the list's item) and the
// single-session view (session-format §6). One pass over the log, as the original console's
// `data/sessions.rs` makes it: calls paired with their first answer, the tools listed, the agent's turns,
// the flow's lookups paired with the decisions that made them, and every line in short form.
// The summary is the hot path (the list reads every log cold): it builds no detail structures, does not
// parse lines that change none of its counts (found by a look at the line's leading fields), and takes a
// plain success answer by its shape, parsing its text later only if a turn check needs it. What it does not
// parse it does not check either: a log whose only fault is in such a line is listed, and its detail (which
// parses everything) answers that it is unreadable. Both run in a worker: they read files synchronously and
// throw an Error whose message says why a file is not a session log.
import type * as v from 'valibot';
import type { IndexedSummarySchema, SessionSiteCount } from '../../shared/sessions.ts';
import type {
  CallView,
  ContextMessage,
  FlowDecision,
  FlowRun,
  SessionDetail,
  SessionMode,
  SessionSummary,
  TimelineEvent,
  ToolInfo,
  ToolKind,
  Turn,
  UpstreamView,
} from '../../shared/sessions.ts';
import { SESSION_LINE_FULL_BYTES, SESSION_RESULT_CUT_BYTES, TIMELINE_SUMMARY_CHARS } from '../../shared/limits.ts';
import { ByteBuilder, writeJsonConsuming } from './session/bytes.ts';
import { type FlowCounts, countsOf, flowCounts, readConfirmLog, readFlowLog } from './session/companions.ts';
import {
  byCodePoint,
  compact,
  cutBytes,
  cutChars,
  detach,
  escapesLoneSurrogate,
  given,
  has,
  idKey,
  idString,
  isObject,
  jsonText,
  leadingFields,
  sortKeys,
  trimEnd,
} from './session/json.ts';
import { type From, type LineAt, type LogEntry, type LogHeader, type Peek, readLine, readLog } from './session/log.ts';
import { type LazyText, TurnInference } from './session/turns.ts';
import { plainAnswer, plainAnswerBytes } from './session/plain-answer.ts';

/** A session log and its companions, as the catalogue found them. */
export interface SessionFiles {
  /** Catalogue key. */
  key: string;
  /** The log, relative to the data directory, `/`-separated. */
  rel: string;
  /** The log's absolute path. */
  path: string;
  /** `<stem>.flow.jsonl` beside the log, when it exists. */
  flowLog: string | null;
  /** `<stem>.confirm.jsonl` beside the log, when it exists. */
  confirmLog: string | null;
}

/**
 * A summary as the summary task answers it: the wire fields, plus the names of the tools called (the
 * agent's, the flow's and those made for a commit), which the list's `q` matches, and what the flow did at
 * each site (shared/sessions.ts, IndexedSummarySchema). Neither is a wire field: listSessions drops them, and
 * `publicSummary` drops them for any other answer.
 */
export type IndexedSummary = v.InferOutput<typeof IndexedSummarySchema>;

/**
 * A session as the index holds it for the views over every session (closest, a flow's evidence): its public
 * summary and, beside it, what only the index keeps. The store's entries are these, so a view over 100k
 * sessions reads them in place instead of a copy of each.
 */
export interface IndexedSession {
  readonly summary: SessionSummary;
  readonly tools: readonly string[];
  readonly flowSites: readonly SessionSiteCount[] | null;
}

/** The same, from a summary made by `sessionSummary` (tests, one-off reads). */
export function indexedSession(s: IndexedSummary): IndexedSession {
  return { summary: publicSummary(s), tools: s.tools_called, flowSites: s.flow_sites ?? null };
}

/** The summary without the fields that only serve the index. */
export function publicSummary(s: SessionSummary): SessionSummary {
  if (!('tools_called' in s)) return s;
  const { tools_called: _, shadow_decisions: __, flow_sites: ___, ...wire } = s as IndexedSummary;
  return wire;
}

/** The proxy's commit tool: its own call is the agent's, the calls it makes are the agent's too. */
const COMMIT_TOOL = 'engine_commit';
/** The client's methods that change a summary; the rest (and initialize, once named) are not parsed. */
const CLIENT_METHODS_COUNTED = new Set(['tools/list', 'tools/call', 'notifications/cancelled']);
/**
 * The leading fields of a message as the proxy writes them, up to where the summary stops reading: what
 * `leadingFields` would find there, without scanning field by field. An id token here is an integer of at
 * most 15 digits (exact as a double) or a string without escapes or control characters: such a token is
 * its own JSON text, so it is its match key as it stands. Messages of any other shape take the long way.
 */
const CLIENT_HEAD = /\{"jsonrpc":"2\.0",(?:"id":(?:0|[1-9]\d{0,14}|"[^"\\\x00-\x1f]*"),)?"method":"([^"\\\x00-\x1f]*)"(?:,"params":|\})/y;
const ANSWER_HEAD =
  /\{(?:"id":(0|[1-9]\d{0,14}|"[^"\\\x00-\x1f]*"),"jsonrpc":"2\.0"|"jsonrpc":"2\.0","id":(0|[1-9]\d{0,14}|"[^"\\\x00-\x1f]*")),"(result|error)":/y;
/** Answers longer than this are not kept for the turn check, which reads them again if it needs them. */
const KEEP_ANSWER_UNITS = 64 * 1024;
const IS_ERROR_KEY = '"isError"';
const LAST_FIELD_FALSE = '"isError":false}}}';
const TRUE_VALUE = /\s*:\s*true/y;

/**
 * Whether an answer line says `"isError": true` anywhere; one that does not is a success for sure. (Inside a
 * JSON string a quote is escaped, so every match is a key of the structure.) The bytes, when given, are
 * searched instead of the text: a byte search is several times faster on a long line.
 */
function saysError(line: string, bytes: Buffer | null): boolean {
  // Most answers end `"isError":false}}}`: the last field of the result (a later duplicate would win), of
  // the message, of the entry. Such an answer is a success without looking further.
  if (line.endsWith(LAST_FIELD_FALSE) && (line[line.length - LAST_FIELD_FALSE.length - 1] === ',' || line[line.length - LAST_FIELD_FALSE.length - 1] === '{')) {
    return false;
  }
  if (bytes !== null) {
    for (let i = bytes.indexOf(IS_ERROR_KEY); i !== -1; i = bytes.indexOf(IS_ERROR_KEY, i + IS_ERROR_KEY.length)) {
      let j = i + IS_ERROR_KEY.length;
      while (bytes[j] === 0x20 || bytes[j] === 0x09 || bytes[j] === 0x0a || bytes[j] === 0x0d) j++;
      if (bytes[j] !== 0x3a) continue;
      j++;
      while (bytes[j] === 0x20 || bytes[j] === 0x09 || bytes[j] === 0x0a || bytes[j] === 0x0d) j++;
      if (bytes.toString('latin1', j, j + 4) === 'true') return true;
    }
    return false;
  }
  for (let i = line.indexOf(IS_ERROR_KEY); i !== -1; i = line.indexOf(IS_ERROR_KEY, i + IS_ERROR_KEY.length)) {
    TRUE_VALUE.lastIndex = i + IS_ERROR_KEY.length;
    if (TRUE_VALUE.test(line)) return true;
  }
  return false;
}
/** Short forms are cut at 200 code points; serializing stops well past that. */
const SUMMARY_BUDGET = TIMELINE_SUMMARY_CHARS * 4;

interface Call extends CallView {
  fromClient: boolean;
  /** Where the request and its first answer lie in the log (the detail's pass only), and the answer's size. */
  place: CallPlace;
}

/** Where a message lies in the log: its line's bytes, and its index when the line holds a batch. */
export interface MessagePlace {
  offset: number;
  length: number;
  element: number | null;
}

/** Where a call's request and first answer lie, and the UTF-8 size of the answer's whole text. */
export interface CallPlace {
  request: MessagePlace | null;
  answer: MessagePlace | null;
  result_bytes: number | null;
}

const placeOf = (at: LineAt, element: number | null): MessagePlace | null =>
  at.offset < 0 ? null : { offset: at.offset, length: at.length, element };

/** The (error, content) of an answer (session-format §3.4). */
export function isErrorAnswer(m: Record<string, unknown>): boolean {
  if (given(m.error)) return true;
  return isObject(m.result) && m.result.isError === true;
}

export function outcomeText(m: Record<string, unknown>): string {
  const error = m.error;
  if (given(error)) return isObject(error) && typeof error.message === 'string' ? error.message : jsonText(error);
  const result = m.result;
  if (isObject(result)) {
    const texts: string[] = [];
    if (Array.isArray(result.content)) {
      for (const item of result.content) {
        if (isObject(item) && item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
      }
    }
    if (texts.length > 0) return texts.join('\n');
    if (has(result, 'structuredContent')) return jsonText(result.structuredContent);
  }
  return jsonText(result);
}

function kindOf(tool: unknown): ToolKind {
  const hint = isObject(tool) && isObject(tool.annotations) ? tool.annotations.readOnlyHint : undefined;
  return hint === true ? 'read' : hint === false ? 'write' : 'generic';
}

/** `name:type[!]` for each input property, sorted, joined with ", " (session-format §3.3). */
function contractOf(tool: Record<string, unknown>): string | null {
  if (!has(tool, 'inputSchema')) return null;
  const schema = tool.inputSchema;
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  const parts = Object.keys(props).map((name) => {
    const p = props[name];
    const t = isObject(p) ? p.type : undefined;
    const type =
      typeof t === 'string'
        ? t
        : Array.isArray(t)
          ? t.filter((x): x is string => typeof x === 'string').join('|')
          : 'any';
    return `${name}:${type}${required.includes(name) ? '!' : ''}`;
  });
  return parts.sort(byCodePoint).join(', ');
}

function toolInfo(name: string, tool: Record<string, unknown>): ToolInfo {
  const ann = isObject(tool.annotations) ? tool.annotations : {};
  const bool = (v: unknown) => (typeof v === 'boolean' ? v : null);
  return {
    name,
    kind: kindOf(tool),
    description: typeof tool.description === 'string' ? tool.description : null,
    read_only_hint: bool(ann.readOnlyHint),
    destructive_hint: bool(ann.destructiveHint),
    contract: contractOf(tool),
  };
}

function upstreamOf(command: string[]): UpstreamView | null {
  const only = command.length === 1 ? command[0] : undefined;
  if (only !== undefined && (only.startsWith('http://') || only.startsWith('https://'))) return { kind: 'http', url: only };
  return command.length > 0 ? { kind: 'stdio', command } : null;
}

export function parseOrNull(text: string): unknown {
  try {
    return sortKeys(JSON.parse(text));
  } catch {
    return null;
  }
}

interface Analysis {
  header: LogHeader;
  size: number;
  /** Strings cut for display in the log and the flow log (shrink.ts). */
  cut: number;
  duration: number;
  proxyEntries: boolean;
  clientName: string | null;
  calls: Call[];
  listed: Map<string, Record<string, unknown>>;
  turnCounts: number[];
  context: ContextMessage[];
  events: TimelineEvent[];
  truncated: boolean;
  decisions: FlowDecision[];
  runs: FlowRun[];
  counts: FlowCounts;
}

/**
 * The one pass over the log (session-format §6.3). `full` builds what only the detail shows; `outline` (with
 * `full`) takes plain successful answers without parsing them (plain-answer.ts): their calls keep only the
 * head of their text, enough for short forms and events, which is all the outline shows.
 */
function analyse(files: SessionFiles, full: boolean, outline = false): Analysis {
  const listed = new Map<string, Record<string, unknown>>();
  const awaitingLists = new Set<string>();
  const calls: Call[] = [];
  const pending = new Map<string, number>();
  const toServer = new Map<string, string>();
  const toClient = new Map<string, string>();
  let commits: [string, string][] = [];
  let lastAnswered: string | null = null;
  let clientName: string | null = null;
  const context: ContextMessage[] = [];
  const events: TimelineEvent[] = [];
  let truncated = false;
  let proxyEntries = false;
  let duration = 0;
  // Whether the entry being read had strings cut for display (its line was too long to read whole).
  let lineCut = false;
  const turns = new TurnInference();

  const event = (t: number, from: From, kind: TimelineEvent['kind'], method: string | null, id: string | null, s: string) =>
    events.push({ t_ms: t, from, kind, method, id, summary: detach(cutChars(s, TIMELINE_SUMMARY_CHARS)) });

  // The answer text of a message, read again from the file: the turn check keeps big answers this way.
  const later = (at: LineAt, index: number | null): LazyText => () => {
    try {
      const line = JSON.parse(readLine(files.path, at)) as { message?: unknown };
      const m = index === null ? line.message : Array.isArray(line.message) ? line.message[index] : undefined;
      return isObject(m) ? outcomeText(m) : '';
    } catch {
      return '';
    }
  };

  const message = (t: number, from: From, m: unknown, inEpisode: boolean, at: LineAt, element: number | null): void => {
    if (from === 'context') {
      if (inEpisode) turns.context(m);
      const content = isObject(m) && typeof m.content === 'string' ? m.content : '';
      const role = isObject(m) ? m.role : undefined;
      if (full) event(t, from, 'context', null, null, `${typeof role === 'string' ? role : '?'}: ${content}`);
      if (full && (role === 'user' || role === 'assistant')) context.push({ t_ms: t, role, content });
      return;
    }
    if (!isObject(m)) {
      if (full) event(t, from, 'raw', null, null, compact(m, SUMMARY_BUDGET));
      return;
    }
    const method = typeof m.method === 'string' ? m.method : null;
    const hasId = given(m.id);
    const answers = has(m, 'result') || given(m.error);

    if (inEpisode && method !== null && from !== 'server') turns.request(t, from === 'client', m, method);

    if (method !== null && hasId) {
      const params = m.params === undefined ? null : m.params;
      if (full) {
        const s =
          method === 'tools/call'
            ? `${isObject(params) && typeof params.name === 'string' ? params.name : '?'} ${compact(isObject(params) ? params.arguments : null, SUMMARY_BUDGET)}`
            : `${method} ${compact(params, SUMMARY_BUDGET)}`;
        event(t, from, 'request', method, idString(m.id), trimEnd(s));
      }
      const key = idKey(m.id);
      if (from === 'server') {
        if (full) toClient.set(key, method);
        return;
      }
      if (full) toServer.set(key, method);
      if (from === 'client' && method === 'initialize' && clientName === null) {
        const info = isObject(params) && isObject(params.clientInfo) ? params.clientInfo : undefined;
        clientName = info && typeof info.name === 'string' ? info.name : null;
      } else if (from === 'client' && method === 'tools/list') {
        awaitingLists.add(key);
      } else if (method === 'tools/call') {
        if (!isObject(params) || typeof params.name !== 'string') return;
        const tool = params.name;
        const fromClient = from === 'client';
        let by: Call['by'] = 'agent';
        let after: string | null = null;
        if (!fromClient) {
          const commit = commits[commits.length - 1];
          if (commit) after = commit[1];
          else {
            by = 'flow';
            after = lastAnswered;
          }
        }
        if (fromClient && tool === COMMIT_TOOL) commits.push([key, idString(m.id)]);
        pending.set(key, calls.length);
        calls.push({
          id: idString(m.id),
          by,
          tool,
          kind: 'generic',
          // Only the detail shows the arguments; the summary's turn check reads them from the message.
          arguments: full && has(params, 'arguments') ? sortKeys(params.arguments) : {},
          t_ms: t,
          result_t_ms: null,
          latency_ms: null,
          ok: null,
          result_text: null,
          result_json: null,
          result_truncated: false,
          turn: null,
          after,
          decision: null,
          fromClient,
          place: { request: full ? placeOf(at, element) : null, answer: null, result_bytes: null },
        });
      }
      return;
    }
    if (method !== null) {
      if (full) event(t, from, 'notification', method, null, trimEnd(`${method} ${compact(m.params, SUMMARY_BUDGET)}`));
      return;
    }
    if (hasId && answers) {
      const key = idKey(m.id);
      const error = isErrorAnswer(m);
      // The CLI takes as a response only a message with no method key at all (session-format §6.3 notes).
      const episodeTakes = inEpisode && from !== 'client' && !has(m, 'method') && turns.waitsFor(key);
      const index = from !== 'client' ? pending.get(key) : undefined;
      const text = full || episodeTakes ? outcomeText(m) : '';
      if (episodeTakes) turns.response(t, key, text.length > KEEP_ANSWER_UNITS ? later(at, element) : text);
      if (index !== undefined) {
        pending.delete(key);
        const c = calls[index];
        if (c) {
          c.result_t_ms = t;
          c.latency_ms = Math.max(0, t - c.t_ms);
          c.ok = !error;
          if (full) {
            c.place.answer = placeOf(at, element);
            c.place.result_bytes = Buffer.byteLength(text, 'utf8');
            const cut = cutBytes(text, SESSION_RESULT_CUT_BYTES);
            // A result whose line was cut for display is cut too, though its text may fit.
            const short = cut.cut || lineCut;
            if (short) truncated = true;
            c.result_text = detach(cut.text);
            c.result_json = short ? null : parseOrNull(cut.text);
            c.result_truncated = short;
          }
          if (from === 'server' && c.fromClient) lastAnswered = c.id;
        }
      }
      if (from === 'proxy' && commits.length > 0) commits = commits.filter(([k]) => k !== key);
      if (from === 'server' && awaitingLists.delete(key)) {
        const listing = isObject(m.result) && Array.isArray(m.result.tools) ? m.result.tools : [];
        for (const tool of listing) {
          if (isObject(tool) && typeof tool.name === 'string') listed.set(tool.name, tool);
        }
      }
      if (full) {
        const asked = (from === 'client' ? toClient.get(key) : toServer.get(key)) ?? null;
        let s: string;
        if (given(m.error)) {
          const e = m.error;
          const code = has(e, 'code') && isObject(e) ? jsonText(e.code) : '';
          s = `error ${code}: ${isObject(e) && typeof e.message === 'string' ? e.message : ''}`;
        } else s = asked === 'tools/call' ? text : compact(m.result, SUMMARY_BUDGET);
        event(t, from, error ? 'error' : 'response', asked, idString(m.id), s);
      }
      return;
    }
    if (full) event(t, from, 'raw', null, hasId ? idString(m.id) : null, compact(m, SUMMARY_BUDGET));
  };

  const onEntry = (e: LogEntry, at: LineAt): void => {
    const { t, from } = e;
    if (t > duration) duration = t;
    if (from === 'proxy') proxyEntries = true;
    lineCut = e.cut !== undefined;
    if (full && e.raw !== null) event(t, from, 'raw', null, null, e.raw);
    const msg = e.message;
    // The agent's turns are inferred without the proxy's own requests (session-format §6.5).
    const inEpisode = !(from === 'proxy' && isObject(msg) && has(msg, 'method'));
    if (Array.isArray(msg)) msg.forEach((m, i) => message(t, from, m, inEpisode, at, i));
    else if (msg !== undefined) message(t, from, msg, inEpisode, at, null);
  };

  // An answer to one of the agent's calls (or the flow's) that the summary need not parse now: its time and
  // success are all the counts need; its text is parsed only if a turn check ever looks at it.
  const successLater = (t: number, from: From, key: string, at: LineAt): void => {
    if (turns.waitsFor(key)) turns.response(t, key, later(at, null));
    const index = pending.get(key);
    const c = index === undefined ? undefined : calls[index];
    if (c) {
      pending.delete(key);
      c.result_t_ms = t;
      c.latency_ms = Math.max(0, t - c.t_ms);
      c.ok = true;
      if (from === 'server' && c.fromClient) lastAnswered = c.id;
    }
    if (from === 'proxy' && commits.length > 0) commits = commits.filter(([k]) => k !== key);
  };

  // The summary's look at a line before parsing it (session-format §6.3 decides what each kind of line can
  // change): lines that change nothing it counts are not parsed, and a plain success answer is parsed later
  // if ever. Anything unusual is parsed.
  /** Whether the summary parses a client message with this method (see CLIENT_METHODS_COUNTED). */
  const clientVerdict = (method: string): boolean | 'shared' => {
    if (method === 'initialize') return clientName === null && 'shared';
    if (method === 'tools/list') return 'shared';
    return CLIENT_METHODS_COUNTED.has(method);
  };

  const peek: Peek = (line, t, from, rest, at, bytes) => {
    if (from === 'context' || !line.startsWith('"message":', rest)) return true;
    const body = rest + '"message":'.length;
    if (from === 'client') {
      // The writer's own shape is matched at once; anything else is scanned field by field.
      CLIENT_HEAD.lastIndex = body;
      const fast = CLIENT_HEAD.exec(line);
      if (fast) return clientVerdict(fast[1] as string);
      const head = leadingFields(line, body, ['params']);
      if (head === null) return true;
      const m = head.fields.find((f) => f.key === 'method');
      // Without a method before the params, the method may follow them: parse. Without any, the line is the
      // client's answer to the server, which counts for nothing.
      if (m === undefined) return head.stoppedAt !== null;
      let method: unknown;
      try {
        method = JSON.parse(line.slice(m.start, m.end));
      } catch {
        return true;
      }
      if (typeof method !== 'string') return true;
      return clientVerdict(method);
    }
    let key: string;
    let stoppedAt: string | null;
    ANSWER_HEAD.lastIndex = body;
    const fast = ANSWER_HEAD.exec(line);
    if (fast) {
      // A plain id token is its own match key (see ANSWER_HEAD).
      key = (fast[1] ?? fast[2]) as string;
      stoppedAt = fast[3] as string;
    } else {
      const head = leadingFields(line, body, from === 'proxy' ? ['method', 'result', 'error'] : ['result', 'error']);
      if (head === null || head.stoppedAt === 'method') return true;
      const id = head.fields.find((f) => f.key === 'id');
      if (id === undefined) return head.stoppedAt !== null;
      if (head.fields.some((f) => f.key === 'method')) return true;
      try {
        key = idKey(JSON.parse(line.slice(id.start, id.end)));
      } catch {
        return true;
      }
      stoppedAt = head.stoppedAt;
    }
    const awaited =
      pending.has(key) || turns.waitsFor(key) || (from === 'proxy' && commits.some(([k]) => k === key));
    // A server lists the same tools in every session: its listing is parsed once per thread.
    if (awaitingLists.has(key)) return 'shared';
    if (!awaited) return false;
    if (stoppedAt !== 'result' || saysError(line, bytes)) return true;
    successLater(t, from, key, at);
    return false;
  };

  // A line not parsed is still refused for a lone surrogate, in small files: searching every long line of
  // a big one for it would cost more than the rest of its summary.
  const look: Peek = (line, t, from, rest, at, bytes) =>
    peek(line, t, from, rest, at, bytes) || (bytes === null && escapesLoneSurrogate(line));

  // The outline's look: a plain success to a pending call is taken from its text, not parsed.
  const outlineLook: Peek = (line, t, from, rest, at, bytes) => {
    if (from !== 'server' || !line.startsWith('"message":', rest)) return true;
    ANSWER_HEAD.lastIndex = rest + '"message":'.length;
    const fast = ANSWER_HEAD.exec(line);
    if (!fast || fast[3] !== 'result') return true;
    const key = (fast[1] ?? fast[2]) as string;
    const index = pending.get(key);
    const c = index === undefined ? undefined : calls[index];
    if (!c || awaitingLists.has(key)) return true;
    // A line too long to read whole comes with its long strings cut (shrink.ts): its bytes tell the answer.
    const plain =
      bytes !== null && bytes.length > SESSION_LINE_FULL_BYTES
        ? plainAnswerBytes(bytes, Buffer.byteLength(line.slice(0, ANSWER_HEAD.lastIndex), 'utf8'))
        : plainAnswer(line, ANSWER_HEAD.lastIndex);
    if (plain === null) return true;
    successLater(t, from, key, at);
    c.place.answer = placeOf(at, null);
    c.place.result_bytes = plain.bytes;
    c.result_text = detach(plain.head);
    event(t, from, 'response', toServer.get(key) ?? null, c.id, plain.head);
    return false;
  };

  const { header, size, cut } = readLog(files.path, onEntry, full ? (outline ? outlineLook : undefined) : look, full);
  // The summary needs only counts from the flow log; the detail reads every decision and run.
  const flow = files.flowLog && full ? readFlowLog(files.flowLog) : { decisions: [], runs: [], cut: 0 };
  const counts = files.flowLog && !full ? flowCounts(files.flowLog) : countsOf(flow.decisions);

  return {
    header,
    size,
    cut: cut + flow.cut,
    duration,
    proxyEntries,
    clientName,
    calls,
    listed,
    turnCounts: turns.turns,
    context,
    events,
    truncated,
    decisions: flow.decisions,
    runs: flow.runs,
    counts,
  };
}

function summaryOf(files: SessionFiles, a: Analysis): SessionSummary {
  const kinds = new Map<string, ToolKind>();
  for (const [name, tool] of a.listed) kinds.set(name, kindOf(tool));
  for (const c of a.calls) c.kind = kinds.get(c.tool) ?? 'generic';
  let toolCalls = 0;
  let errors = 0;
  let writes = 0;
  let flowLookups = 0;
  for (const c of a.calls) {
    if (c.fromClient) {
      toolCalls++;
      if (c.ok === false) errors++;
      if (c.kind === 'write') writes++;
    }
    if (c.by === 'flow') flowLookups++;
  }
  const { counts } = a;
  const mode: SessionMode = a.proxyEntries || counts.acted ? 'served' : counts.shadowed ? 'shadow' : 'recorded';
  const h = a.header;
  return {
    key: files.key,
    path: files.rel,
    session_id: h.session,
    domain: h.domain === null || h.domain === '' ? null : h.domain,
    agent: h.agent_model !== null && h.agent_model !== '' ? h.agent_model : a.clientName,
    started_unix_ms: h.started_unix_ms,
    duration_ms: a.duration,
    mode,
    tool_calls: toolCalls,
    llm_turns: a.turnCounts.length,
    errors,
    flow_lookups: flowLookups,
    hand_backs: counts.hand_backs,
    shadow_lookups: counts.shadow_lookups,
    surprised: counts.surprised,
    writes,
    upstream: upstreamOf(h.server_command),
    size_bytes: a.size,
    has_flow_log: files.flowLog !== null,
    has_confirm_log: files.confirmLog !== null,
  };
}

/**
 * A value nested so deep that walking it overflows the stack (JSON.parse itself takes any depth) makes the
 * log unreadable, as the CLI's parser refuses nesting past 128 levels: a `parsing` error, not a crash.
 */
function tooDeep(files: SessionFiles, e: unknown): unknown {
  return e instanceof RangeError ? new Error(`parsing ${files.path}: a value is nested too deeply to read (${e.message})`) : e;
}

/** The list's item for one session log, with the tools called. Throws when the file is not a session log. */
export function sessionSummary(files: SessionFiles): IndexedSummary {
  try {
    return summaryWithTools(files);
  } catch (e) {
    throw tooDeep(files, e);
  }
}

function summaryWithTools(files: SessionFiles): IndexedSummary {
  const a = analyse(files, false);
  const called = [...new Set(a.calls.map((c) => c.tool))];
  const sites = a.counts.sites;
  const summary: IndexedSummary = { ...summaryOf(files, a), tools_called: called, shadow_decisions: a.counts.shadow_lookups + a.counts.shadow_hand_backs };
  if (sites.size > 0) summary.flow_sites = [...sites.values()].sort((x, y) => (x.site < y.site ? -1 : x.site > y.site ? 1 : 0));
  return summary;
}

/** The single-session view with every section. Throws when the file is not a session log. */
export function sessionDetail(files: SessionFiles): SessionDetail {
  return sessionDetailPlaced(files).detail;
}

/**
 * The view, and where each of its calls lies in the log (in the order of `calls`). With `outline`, plain
 * successful answers are not parsed: their calls carry only the head of their text (result_json null), for
 * the outline, which shows no payloads.
 */
export function sessionDetailPlaced(files: SessionFiles, outline = false): { detail: SessionDetail; places: CallPlace[] } {
  try {
    return detailOf(files, outline);
  } catch (e) {
    throw tooDeep(files, e);
  }
}

function detailOf(files: SessionFiles, outline: boolean): { detail: SessionDetail; places: CallPlace[] } {
  const a = analyse(files, true, outline);
  const summary = summaryOf(files, a);

  // The agent's turns (session-format §6.5): tool-call turns take the agent's calls in order; message
  // turns take the time of the next non-empty assistant message.
  const agentCalls = a.calls.filter((c) => c.fromClient);
  const said = a.context.filter((m) => m.role === 'assistant' && m.content !== '');
  const turns: Turn[] = [];
  let nextCall = 0;
  let nextSaid = 0;
  for (const n of a.turnCounts) {
    const index = turns.length;
    if (n > 0) {
      const own = agentCalls.slice(nextCall, nextCall + n);
      nextCall += n;
      let start = Infinity;
      let end = 0;
      for (const c of own) {
        c.turn = index;
        start = Math.min(start, c.t_ms);
        end = Math.max(end, c.result_t_ms ?? c.t_ms);
      }
      if (start === Infinity) start = 0;
      turns.push({ index, start_ms: start, end_ms: Math.max(end, start), calls: own.map((c) => c.id) });
    } else {
      const t = said[nextSaid++]?.t_ms ?? 0;
      turns.push({ index, start_ms: t, end_ms: t, calls: [] });
    }
  }

  // Each flow lookup carries the decision that made it, paired in order within its `after` group (§4.4).
  const groups = new Map<string, number[]>();
  a.decisions.forEach((d, i) => {
    if (d.action !== 'lookup' || d.shadow) return;
    const g = groups.get(d.after);
    if (g) g.push(i);
    else groups.set(d.after, [i]);
  });
  for (const c of a.calls) {
    if (c.by !== 'flow' || c.after === null) continue;
    c.decision = groups.get(c.after)?.shift() ?? null;
  }

  const names = [...a.listed.keys()].sort(byCodePoint);
  const tally = { cut: a.cut };
  const confirmations = files.confirmLog ? readConfirmLog(files.confirmLog, tally) : [];
  const detail: SessionDetail = {
    summary,
    header: sortKeys(a.header.value),
    tools: names.map((name) => toolInfo(name, a.listed.get(name) ?? {})),
    turns,
    calls: a.calls.map(({ fromClient: _, place: __, ...view }) => view),
    context: a.context,
    decisions: a.decisions,
    runs: a.runs,
    confirmations,
    events: a.events,
    truncated: a.truncated,
  };
  // Only a log with lines too long to read whole says how many of their strings were cut.
  if (tally.cut > 0) detail.cut_for_display = tally.cut;
  return { detail, places: a.calls.map((c) => c.place) };
}

/**
 * The single-session view as the UTF-8 bytes of its JSON text (those of `JSON.stringify(sessionDetail(..))`),
 * in chunks of at most 1 MiB that each own their ArrayBuffer. The view is written a call and an event at a
 * time, and each is let go once written, so a big log's view is never held as values, text and bytes at once.
 */
export function sessionDetailBytes(files: SessionFiles): Uint8Array[] {
  const out = new ByteBuilder();
  try {
    writeJsonConsuming(out, sessionDetail(files) as unknown as Record<string, unknown>);
  } catch (e) {
    throw tooDeep(files, e);
  }
  return out.finish();
}
