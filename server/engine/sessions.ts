// A session log with its flow log and confirmation log → the session summary (the list's item) and the
// single-session view (session-format §6). One pass over the log, as the original console's
// `data/sessions.rs` makes it: calls paired with their first answer, the tools listed, the agent's turns,
// the flow's lookups paired with the decisions that made them, and every line in short form.
// The summary is the hot path (the list reads every log cold): it builds no detail structures, does not
// parse lines that change none of its counts (found by a look at the line's leading fields, in
// session/summary-peek.ts), and takes a plain success answer by its shape, parsing its text later only if
// a turn check needs it. What it does not parse it does not check either: a log whose only fault is in
// such a line is listed, and its detail (which parses everything) answers that it is unreadable. Both run
// in a worker: they read files synchronously and throw an Error whose message says why a file is not a
// session log.
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
  given,
  has,
  idKey,
  idString,
  isObject,
  jsonText,
  sortKeys,
  trimEnd,
} from './session/json.ts';
import { type From, type LineAt, type LogEntry, type LogHeader, type Peek, readLine, readLog } from './session/log.ts';
import { type LazyText, TurnInference } from './session/turns.ts';
import { ANSWER_HEAD, type AwaitedAnswers, summaryPeek } from './session/summary-peek.ts';
import { plainAnswer, plainAnswerBytes, plainAnswerOfLine } from './session/plain-answer.ts';
import type { OpenedFile } from './session/opened.ts';

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
  /** Made when asked, for an index entry: a view over every session reads the fields below first. */
  readonly summary: SessionSummary;
  readonly tools: readonly string[];
  readonly flowSites: readonly SessionSiteCount[] | null;
  // The summary's fields such a view tests every session by.
  readonly key: string;
  readonly session_id: string;
  readonly domain: string | null;
  readonly mode: SessionMode | null;
  readonly started_unix_ms: number;
}

/** The same, from a summary made by `sessionSummary` (tests, one-off reads). */
export function indexedSession(s: IndexedSummary): IndexedSession {
  const summary = publicSummary(s);
  const { key, session_id, domain, mode, started_unix_ms } = summary;
  return { summary, tools: s.tools_called, flowSites: s.flow_sites ?? null, key, session_id, domain, mode, started_unix_ms };
}

/** The summary without the fields that only serve the index. */
export function publicSummary(s: SessionSummary): SessionSummary {
  if (!('tools_called' in s)) return s;
  const { tools_called: _, shadow_decisions: __, flow_sites: ___, ...wire } = s as IndexedSummary;
  return wire;
}

/** The proxy's commit tool: its own call is the agent's, the calls it makes are the agent's too. */
const COMMIT_TOOL = 'engine_commit';
/** Answers longer than this are not kept for the turn check, which reads them again if it needs them. */
const KEEP_ANSWER_UNITS = 64 * 1024;
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

/**
 * An answer's outcome text read again from the log when it is asked for (element: its place in a batch line),
 * so a turn check can keep big answers without holding them; '' for a line that no longer reads.
 */
export function outcomeTextLater(path: string, at: LineAt, element: number | null): LazyText {
  return () => {
    try {
      const line = JSON.parse(readLine(path, at)) as { message?: unknown };
      const m = element === null ? line.message : Array.isArray(line.message) ? line.message[element] : undefined;
      return isObject(m) ? outcomeText(m) : '';
    } catch {
      return '';
    }
  };
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
 * The one pass over the log (session-format §6.3), as a reader that holds what it has found so far. Each
 * entry goes to `onEntry`, each message in it to the method for its kind (context, request, notification,
 * answer, anything else raw). `full` builds what only the detail shows; the summary leaves it out and reads
 * through `summaryPeek` (summary-peek.ts), which skips lines without parsing them. `outlineLook` (with
 * `full`) takes plain successful answers without parsing them (plain-answer.ts): their calls keep only the
 * head of their text, enough for short forms and events, which is all the outline shows.
 */
class SessionLogPass implements AwaitedAnswers {
  /** The server's tools as listed, by name (the last listing of each name wins). */
  readonly listed = new Map<string, Record<string, unknown>>();
  readonly awaitingLists = new Set<string>();
  readonly calls: Call[] = [];
  readonly pending = new Map<string, number>();
  /** Methods of requests, by id key, to name what an answer answers (the detail only). */
  private readonly toServer = new Map<string, string>();
  private readonly toClient = new Map<string, string>();
  /** The agent's commit calls in progress: [id key, id]; the calls the proxy makes meanwhile are the agent's. */
  private commits: [string, string][] = [];
  /** The id of the agent's call the server answered last: the flow's lookups come after it. */
  private lastAnswered: string | null = null;
  clientName: string | null = null;
  readonly context: ContextMessage[] = [];
  readonly events: TimelineEvent[] = [];
  truncated = false;
  proxyEntries = false;
  duration = 0;
  /** Whether the entry being read had strings cut for display (its line was too long to read whole). */
  private lineCut = false;
  readonly turns = new TurnInference();

  constructor(
    private readonly files: SessionFiles,
    private readonly full: boolean,
  ) {}

  readonly onEntry = (e: LogEntry, at: LineAt): void => {
    const { t, from } = e;
    if (t > this.duration) this.duration = t;
    if (from === 'proxy') this.proxyEntries = true;
    this.lineCut = e.cut !== undefined;
    if (this.full && e.raw !== null) this.event(t, from, 'raw', null, null, e.raw);
    const msg = e.message;
    // The agent's turns are inferred without the proxy's own requests (session-format §6.5).
    const inEpisode = !(from === 'proxy' && isObject(msg) && has(msg, 'method'));
    if (Array.isArray(msg)) msg.forEach((m, i) => this.message(t, from, m, inEpisode, at, i));
    else if (msg !== undefined) this.message(t, from, msg, inEpisode, at, null);
  };

  awaitsCommit(key: string): boolean {
    return this.commits.some(([k]) => k === key);
  }

  private event(t: number, from: From, kind: TimelineEvent['kind'], method: string | null, id: string | null, s: string): void {
    this.events.push({ t_ms: t, from, kind, method, id, summary: detach(cutChars(s, TIMELINE_SUMMARY_CHARS)) });
  }

  /** The answer text of a message, read again from the file: the turn check keeps big answers this way. */
  private later(at: LineAt, index: number | null): LazyText {
    return outcomeTextLater(this.files.path, at, index);
  }

  private message(t: number, from: From, m: unknown, inEpisode: boolean, at: LineAt, element: number | null): void {
    if (from === 'context') return this.contextMessage(t, m, inEpisode);
    if (!isObject(m)) {
      if (this.full) this.event(t, from, 'raw', null, null, compact(m, SUMMARY_BUDGET));
      return;
    }
    const method = typeof m.method === 'string' ? m.method : null;
    const hasId = given(m.id);
    if (inEpisode && method !== null && from !== 'server') this.turns.request(t, from === 'client', m, method);
    if (method !== null && hasId) return this.request(t, from, m, method, at, element);
    if (method !== null) {
      if (this.full) this.event(t, from, 'notification', method, null, trimEnd(`${method} ${compact(m.params, SUMMARY_BUDGET)}`));
      return;
    }
    if (hasId && (has(m, 'result') || given(m.error))) return this.answer(t, from, m, inEpisode, at, element);
    if (this.full) this.event(t, from, 'raw', null, hasId ? idString(m.id) : null, compact(m, SUMMARY_BUDGET));
  }

  private contextMessage(t: number, m: unknown, inEpisode: boolean): void {
    if (inEpisode) this.turns.context(m);
    if (!this.full) return;
    const content = isObject(m) && typeof m.content === 'string' ? m.content : '';
    const role = isObject(m) ? m.role : undefined;
    this.event(t, 'context', 'context', null, null, `${typeof role === 'string' ? role : '?'}: ${content}`);
    if (role === 'user' || role === 'assistant') this.context.push({ t_ms: t, role, content });
  }

  private request(t: number, from: From, m: Record<string, unknown>, method: string, at: LineAt, element: number | null): void {
    const params = m.params === undefined ? null : m.params;
    if (this.full) {
      const s =
        method === 'tools/call'
          ? `${isObject(params) && typeof params.name === 'string' ? params.name : '?'} ${compact(isObject(params) ? params.arguments : null, SUMMARY_BUDGET)}`
          : `${method} ${compact(params, SUMMARY_BUDGET)}`;
      this.event(t, from, 'request', method, idString(m.id), trimEnd(s));
    }
    const key = idKey(m.id);
    if (from === 'server') {
      if (this.full) this.toClient.set(key, method);
      return;
    }
    if (this.full) this.toServer.set(key, method);
    if (from === 'client' && method === 'initialize' && this.clientName === null) {
      const info = isObject(params) && isObject(params.clientInfo) ? params.clientInfo : undefined;
      this.clientName = info && typeof info.name === 'string' ? info.name : null;
    } else if (from === 'client' && method === 'tools/list') {
      this.awaitingLists.add(key);
    } else if (method === 'tools/call' && isObject(params) && typeof params.name === 'string') {
      this.toolCall(t, from, m, params, key, at, element);
    }
  }

  /** A tools/call: the agent's (from the client, or the proxy's inside a commit) or the flow's lookup. */
  private toolCall(t: number, from: From, m: Record<string, unknown>, params: Record<string, unknown>, key: string, at: LineAt, element: number | null): void {
    const tool = params.name as string;
    const fromClient = from === 'client';
    let by: Call['by'] = 'agent';
    let after: string | null = null;
    if (!fromClient) {
      const commit = this.commits[this.commits.length - 1];
      if (commit) after = commit[1];
      else {
        by = 'flow';
        after = this.lastAnswered;
      }
    }
    if (fromClient && tool === COMMIT_TOOL) this.commits.push([key, idString(m.id)]);
    this.pending.set(key, this.calls.length);
    this.calls.push({
      id: idString(m.id),
      by,
      tool,
      kind: 'generic',
      // Only the detail shows the arguments; the summary's turn check reads them from the message.
      arguments: this.full && has(params, 'arguments') ? sortKeys(params.arguments) : {},
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
      place: { request: this.full ? placeOf(at, element) : null, answer: null, result_bytes: null },
    });
  }

  private answer(t: number, from: From, m: Record<string, unknown>, inEpisode: boolean, at: LineAt, element: number | null): void {
    const { full, turns } = this;
    const key = idKey(m.id);
    const error = isErrorAnswer(m);
    // The CLI takes as a response only a message with no method key at all (session-format §6.3 notes).
    const episodeTakes = inEpisode && from !== 'client' && !has(m, 'method') && turns.waitsFor(key);
    const index = from !== 'client' ? this.pending.get(key) : undefined;
    const text = full || episodeTakes ? outcomeText(m) : '';
    if (episodeTakes) turns.response(t, key, text.length > KEEP_ANSWER_UNITS ? this.later(at, element) : text);
    if (index !== undefined) {
      this.pending.delete(key);
      const c = this.calls[index];
      if (c) {
        this.answered(c, t, !error);
        if (full) this.keepResult(c, text, at, element);
        if (from === 'server' && c.fromClient) this.lastAnswered = c.id;
      }
    }
    if (from === 'proxy' && this.commits.length > 0) this.commits = this.commits.filter(([k]) => k !== key);
    if (from === 'server' && this.awaitingLists.delete(key)) {
      const listing = isObject(m.result) && Array.isArray(m.result.tools) ? m.result.tools : [];
      for (const tool of listing) {
        if (isObject(tool) && typeof tool.name === 'string') this.listed.set(tool.name, tool);
      }
    }
    if (full) this.answerEvent(t, from, m, key, error, text);
  }

  private answered(c: Call, t: number, ok: boolean): void {
    c.result_t_ms = t;
    c.latency_ms = Math.max(0, t - c.t_ms);
    c.ok = ok;
  }

  /** The detail's copy of a call's result: its text cut for display, and its JSON when whole. */
  private keepResult(c: Call, text: string, at: LineAt, element: number | null): void {
    c.place.answer = placeOf(at, element);
    c.place.result_bytes = Buffer.byteLength(text, 'utf8');
    const cut = cutBytes(text, SESSION_RESULT_CUT_BYTES);
    // A result whose line was cut for display is cut too, though its text may fit.
    const short = cut.cut || this.lineCut;
    if (short) this.truncated = true;
    c.result_text = detach(cut.text);
    c.result_json = short ? null : parseOrNull(cut.text);
    c.result_truncated = short;
  }

  private answerEvent(t: number, from: From, m: Record<string, unknown>, key: string, error: boolean, text: string): void {
    const asked = (from === 'client' ? this.toClient.get(key) : this.toServer.get(key)) ?? null;
    let s: string;
    if (given(m.error)) {
      const e = m.error;
      const code = has(e, 'code') && isObject(e) ? jsonText(e.code) : '';
      s = `error ${code}: ${isObject(e) && typeof e.message === 'string' ? e.message : ''}`;
    } else s = asked === 'tools/call' ? text : compact(m.result, SUMMARY_BUDGET);
    this.event(t, from, error ? 'error' : 'response', asked, idString(m.id), s);
  }

  /**
   * An answer to one of the agent's calls (or the flow's) that need not be parsed now: its time and success
   * are all the counts need; its text is parsed only if a turn check ever looks at it.
   */
  successLater(t: number, from: From, key: string, at: LineAt): void {
    if (this.turns.waitsFor(key)) this.turns.response(t, key, this.later(at, null));
    const index = this.pending.get(key);
    const c = index === undefined ? undefined : this.calls[index];
    if (c) {
      this.pending.delete(key);
      this.answered(c, t, true);
      if (from === 'server' && c.fromClient) this.lastAnswered = c.id;
    }
    if (from === 'proxy' && this.commits.length > 0) this.commits = this.commits.filter(([k]) => k !== key);
  }

  /** A context message of the writer's shape, taken unparsed by the summary's look: only the turns read it. */
  contextSaid(role: string, content: string): void {
    this.turns.context({ role, content });
  }

  /** The outline's look: a plain success to a pending call is taken from its text, not parsed. */
  readonly outlineLook: Peek = (line, t, from, rest, at, bytes) => {
    if (from !== 'server' || !line.startsWith('"message":', rest)) return true;
    ANSWER_HEAD.lastIndex = rest + '"message":'.length;
    const fast = ANSWER_HEAD.exec(line);
    if (!fast || fast[3] !== 'result') return true;
    const key = (fast[1] ?? fast[2]) as string;
    const index = this.pending.get(key);
    const c = index === undefined ? undefined : this.calls[index];
    if (!c || this.awaitingLists.has(key)) return true;
    // A line of a big log is read from its bytes (the look may have only its head, see Peek); one too long to
    // read whole comes with its long strings cut (shrink.ts), and its answer's head is taken from the bytes.
    const byteFrom = () => Buffer.byteLength(line.slice(0, ANSWER_HEAD.lastIndex), 'utf8');
    const plain =
      bytes === null
        ? plainAnswer(line, ANSWER_HEAD.lastIndex)
        : bytes.length > SESSION_LINE_FULL_BYTES
          ? plainAnswerBytes(bytes, byteFrom())
          : plainAnswerOfLine(bytes, byteFrom());
    if (plain === null) return true;
    this.successLater(t, from, key, at);
    c.place.answer = placeOf(at, null);
    c.place.result_bytes = plain.bytes;
    c.result_text = detach(plain.head);
    this.event(t, from, 'response', this.toServer.get(key) ?? null, c.id, plain.head);
    return false;
  };
}

/** Reads the log in one pass (see SessionLogPass), then the flow log: counts for the summary, all for the detail. */
function analyse(files: SessionFiles, full: boolean, outline = false, opened: OpenedFiles = {}): Analysis {
  const pass = new SessionLogPass(files, full);
  const { header, size, cut } = readLog(files.path, pass.onEntry, full ? (outline ? pass.outlineLook : undefined) : summaryPeek(pass), full, opened.log);
  // The summary needs only counts from the flow log; the detail reads every decision and run.
  const flow = files.flowLog && full ? readFlowLog(files.flowLog) : { decisions: [], runs: [], cut: 0 };
  const counts = files.flowLog && !full ? flowCounts(files.flowLog, opened.flow) : countsOf(flow.decisions);

  return {
    header,
    size,
    cut: cut + flow.cut,
    duration: pass.duration,
    proxyEntries: pass.proxyEntries,
    clientName: pass.clientName,
    calls: pass.calls,
    listed: pass.listed,
    turnCounts: pass.turns.turns,
    context: pass.context,
    events: pass.events,
    truncated: pass.truncated,
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

/** A session's log and flow log as their caller already opened them (see engine/session/opened.ts). */
export interface OpenedFiles {
  log?: OpenedFile;
  flow?: OpenedFile;
}

/** The list's item for one session log, with the tools called. Throws when the file is not a session log. */
export function sessionSummary(files: SessionFiles, opened?: OpenedFiles): IndexedSummary {
  try {
    return summaryWithTools(files, opened);
  } catch (e) {
    throw tooDeep(files, e);
  }
}

function summaryWithTools(files: SessionFiles, opened?: OpenedFiles): IndexedSummary {
  const a = analyse(files, false, false, opened);
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
    writeJsonConsuming(out, sessionDetail(files));
  } catch (e) {
    throw tooDeep(files, e);
  }
  return out.finish();
}
