// One pass over a session log for the OTLP export: every request the agent (client) or the proxy sent with
// the first answer it got, the notifications, the conversation's messages and the agent's turns, read with
// the same reader and the same turn rule as the session view (session-format §3), so the export and the
// console agree on what a session holds.
import { readLog, type From, type LineAt, type LogHeader } from '../session/log.ts';
import { exchangeLook } from './exchange-look.ts';
import { TurnInference } from '../session/turns.ts';
import { given, has, idKey, isObject } from '../session/json.ts';
import { outcomeText, outcomeTextLater } from '../sessions.ts';

/** A request from the agent or the proxy and the first answer the server (or the proxy) gave it. */
export interface Exchange {
  /** Its place among the log's requests: part of its span id, so a longer log keeps earlier ids. */
  ordinal: number;
  from: 'client' | 'proxy';
  method: string;
  id: string;
  t: number;
  /** `params.name` and `params.uri` where they are strings: what the span's name and attributes take. */
  name: string | null;
  uri: string | null;
  /** `params.arguments` ({} without), kept only when payloads are asked for. */
  args: unknown;
  answer: Answer | null;
  /** The agent's tools/call (a call the turn rule sees). */
  agentCall: boolean;
  /** For a proxy request: the agent's call the server answered last before it (the flow's lookups follow one). */
  after: string | null;
}

export interface Answer {
  t: number;
  /** A JSON-RPC error: its code (null when it has none that is a number or a string). */
  errorCode: string | null;
  errorMessage: string | null;
  /** `result.isError` is true. */
  toolError: boolean;
  /** The answer's content as the CLI reads it (text items joined) when it is a tool error: the span's status. */
  toolErrorText: string | null;
  /** Kept only when payloads are asked for (else null and ''): a big log's answers are not held in memory. */
  result: unknown;
  /** The answer's content as the CLI reads it, for the opt-in result attribute. */
  text: () => string;
}

export interface Notice {
  t: number;
  from: From;
  method: string;
}

export interface Said {
  t: number;
  role: 'user' | 'assistant';
  content: string;
}

export interface SessionExchanges {
  header: LogHeader;
  exchanges: Exchange[];
  notices: Notice[];
  said: Said[];
  /** The agent's turns: calls per tool-call turn, 0 for a message turn (turns.ts). */
  turnCounts: readonly number[];
  /** The largest `t_ms` in the log. */
  duration: number;
  /** The protocol version the server answered `initialize` with (else the one the client asked for). */
  protocolVersion: string | null;
  /** The client's name from its first `initialize` (the agent when the header names none). */
  clientName: string | null;
  /** The proxy wrote lines of its own (the session was served). */
  proxyEntries: boolean;
}

const NO_TEXT = () => '';

/** An answer that is a success and no tool error: what an answer taken unparsed is. */
function plainSuccess(t: number): Answer {
  return { t, errorCode: null, errorMessage: null, toolError: false, toolErrorText: null, result: null, text: NO_TEXT };
}

function answerOf(t: number, m: Record<string, unknown>, payloads: boolean): Answer {
  const error = m.error;
  const code = isObject(error) && (typeof error.code === 'number' || typeof error.code === 'string') ? String(error.code) : null;
  const toolError = !given(error) && isObject(m.result) && m.result.isError === true;
  return {
    t,
    errorCode: given(error) ? (code ?? 'error') : null,
    errorMessage: given(error) ? outcomeText(m) : null,
    toolError,
    toolErrorText: toolError ? outcomeText(m) : null,
    result: payloads ? (given(error) ? error : m.result) : null,
    text: payloads ? () => outcomeText(m) : NO_TEXT,
  };
}

const stringOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Reads the log once; the requests' arguments and the answers' results are kept only with `payloads`. Throws
 * the reader's `parsing <path>: ...` for a file that is not a session log.
 */
export function sessionExchanges(path: string, payloads: boolean): SessionExchanges {
  const exchanges: Exchange[] = [];
  const pending = new Map<string, Exchange>();
  const notices: Notice[] = [];
  const said: Said[] = [];
  const turns = new TurnInference();
  let duration = 0;
  let asked: string | null = null;
  let answered: string | null = null;
  let lastAnsweredCall: string | null = null;
  let clientName: string | null = null;
  let proxyEntries = false;
  // Ids of the requests whose answers recur across sessions (a server's handshake and tool listing).
  const recurring = new Set<string>();

  const message = (t: number, from: From, m: unknown, inEpisode: boolean, at: LineAt, element: number | null): void => {
    if (from === 'context') {
      if (inEpisode) turns.context(m);
      if (isObject(m) && (m.role === 'user' || m.role === 'assistant')) {
        said.push({ t, role: m.role, content: typeof m.content === 'string' ? m.content : '' });
      }
      return;
    }
    if (!isObject(m)) return;
    const method = typeof m.method === 'string' ? m.method : null;
    if (inEpisode && method !== null && from !== 'server') turns.request(t, from === 'client', m, method);
    if (method !== null) {
      if (!given(m.id)) return void notices.push({ t, from, method });
      if (from === 'server') return;
      if (method === 'initialize' && isObject(m.params)) {
        if (typeof m.params.protocolVersion === 'string') asked ??= m.params.protocolVersion;
        const info = m.params.clientInfo;
        if (from === 'client' && isObject(info) && typeof info.name === 'string') clientName ??= info.name;
      }
      const name = isObject(m.params) ? stringOr(m.params.name) : null;
      const key = idKey(m.id);
      const ex: Exchange = {
        ordinal: exchanges.length,
        from,
        method,
        // A string id as it is; any other id's JSON text is its key already.
        id: typeof m.id === 'string' ? m.id : key,
        t,
        name,
        uri: isObject(m.params) ? stringOr(m.params.uri) : null,
        args: payloads ? (isObject(m.params) && 'arguments' in m.params ? m.params.arguments : {}) : null,
        answer: null,
        agentCall: from === 'client' && method === 'tools/call' && name !== null,
        after: from === 'proxy' ? lastAnsweredCall : null,
      };
      exchanges.push(ex);
      pending.set(key, ex);
      if (from === 'client' && (method === 'tools/list' || method === 'initialize')) recurring.add(key);
      return;
    }
    if (from === 'client' || !given(m.id) || !(has(m, 'result') || given(m.error))) return;
    const key = idKey(m.id);
    // Read again if a turn check asks: holding the parsed answer would hold the whole log.
    if (inEpisode && turns.waitsFor(key)) turns.response(t, key, outcomeTextLater(path, at, element));
    const ex = pending.get(key);
    if (!ex) return;
    pending.delete(key);
    recurring.delete(key);
    ex.answer = answerOf(t, m, payloads);
    if (ex.method === 'initialize' && isObject(m.result) && typeof m.result.protocolVersion === 'string') answered ??= m.result.protocolVersion;
    if (ex.agentCall && from === 'server') lastAnsweredCall = ex.id;
  };

  const peek = exchangeLook({
    payloads,
    recurring,
    pendingMethod: (key) => pending.get(key)?.method,
    context: (t, role, content) => {
      turns.context({ role, content });
      if (role === 'user' || role === 'assistant') said.push({ t, role, content });
    },
    success: (t, from, key, at) => {
      if (turns.waitsFor(key)) turns.response(t, key, outcomeTextLater(path, at, null));
      const ex = pending.get(key);
      if (!ex) return;
      pending.delete(key);
      recurring.delete(key);
      ex.answer = plainSuccess(t);
      if (ex.agentCall && from === 'server') lastAnsweredCall = ex.id;
    },
  });
  const { header } = readLog(path, (e, at) => {
    if (e.t > duration) duration = e.t;
    if (e.from === 'proxy') proxyEntries = true;
    const msg = e.message;
    // The agent's turns are inferred without the proxy's own requests (session-format §6.5).
    const inEpisode = !(e.from === 'proxy' && isObject(msg) && has(msg, 'method'));
    if (Array.isArray(msg)) msg.forEach((m, element) => message(e.t, e.from, m, inEpisode, at, element));
    else if (msg !== undefined) message(e.t, e.from, msg, inEpisode, at, null);
  }, peek);
  return { header, exchanges, notices, said, turnCounts: turns.turns, duration, protocolVersion: answered ?? asked, clientName, proxyEntries };
}
