// A session as one trace of OpenTelemetry spans (shared/otlp.ts pins the conventions): a root span for the
// session, a span per agent turn, a CLIENT span per MCP request with its answer, named and attributed as the
// MCP conventions say, the flow's decisions as events on the call they followed, the conversation's
// messages as events on the root. Ids come from the session (ids.ts), so a re-export is the same trace.
import { SpanKind, SpanStatusCode, type Attributes, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import type { TimedEvent } from '@opentelemetry/sdk-trace';
import { SEMCONV_SCHEMA_URL } from '../../../shared/otlp.ts';
import type { FlowDecision } from '../../../shared/sessions.ts';
import { countsOf, readFlowLog } from '../session/companions.ts';
import { HeapGuard } from '../session/heap-guard.ts';
import { jsonText } from '../session/json.ts';
import type { SessionFiles } from '../sessions.ts';
import { sessionExchanges, type Exchange, type SessionExchanges } from './exchanges.ts';
import { spanIds, traceIdOf } from './ids.ts';
import { upstreamAttributes } from './upstream.ts';

export interface TraceOptions {
  /** Add `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` (opt-in: personal data). */
  payloads: boolean;
  /** The console's version, as the instrumentation scope's and the service's. */
  version: string;
}

/** A span as plain data (it crosses from a worker): a ReadableSpan without its resource, scope and methods. */
export interface SpanData {
  name: string;
  kind: SpanKind;
  context: SpanContext;
  parent: SpanContext | undefined;
  startTime: [number, number];
  endTime: [number, number];
  duration: [number, number];
  status: SpanStatus;
  attributes: Attributes;
  events: TimedEvent[];
}

/** One session's trace as plain data: readable.ts makes the SDK's spans of it. */
export interface SessionTrace {
  sessionId: string;
  resource: Attributes;
  scope: { name: string; version: string; schemaUrl: string };
  spans: SpanData[];
}

/** What a span needs besides its own fields: the session's trace id, its span ids, and its start. */
interface TraceFrame {
  traceId: string;
  spanId: (part: string) => string;
  startMs: number;
}

interface SpanParts {
  part: string;
  parent: string | null;
  name: string;
  kind: SpanKind;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: TimedEvent[];
  status: SpanStatus;
}

/** The status of a span that did not fail: one object, as nothing changes a span's status once made. */
const UNSET: SpanStatus = { code: SpanStatusCode.UNSET };

function spanOf(frame: TraceFrame, p: SpanParts): SpanData {
  const context: SpanContext = { traceId: frame.traceId, spanId: frame.spanId(p.part), traceFlags: 1 };
  const parent: SpanContext | undefined =
    p.parent === null ? undefined : { traceId: frame.traceId, spanId: frame.spanId(p.parent), traceFlags: 1 };
  const start = millisToHrTime(frame.startMs + p.startMs);
  const end = millisToHrTime(frame.startMs + Math.max(p.endMs, p.startMs));
  return {
    name: p.name,
    kind: p.kind,
    context,
    parent,
    startTime: start,
    endTime: end,
    duration: millisToHrTime(Math.max(p.endMs, p.startMs) - p.startMs),
    status: p.status,
    attributes: p.attributes,
    events: p.events,
  };
}

/**
 * The span's attributes: the session's common ones, then each part's in order, as `{...common, ...part}`
 * would give them; assigned one by one, as spreading into a literal was the mapping's hot spot.
 */
function withCommon(common: Attributes, ...parts: Attributes[]): Attributes {
  const out: Attributes = Object.assign({}, common);
  for (const part of parts) for (const key in part) out[key] = part[key];
  return out;
}

/** The thing a request names, as the MCP conventions put it after the method in the span's name. */
function targetOf(ex: Exchange): { attrs: Attributes; target: string | null } {
  if (ex.method === 'tools/call' && ex.name !== null) {
    return { attrs: { 'gen_ai.tool.name': ex.name, 'gen_ai.operation.name': 'execute_tool' }, target: ex.name };
  }
  if (ex.method === 'prompts/get' && ex.name !== null) return { attrs: { 'gen_ai.prompt.name': ex.name }, target: ex.name };
  if (ex.method.startsWith('resources/') && ex.uri !== null) return { attrs: { 'mcp.resource.uri': ex.uri }, target: null };
  return { attrs: {}, target: null };
}

function requestSpan(frame: TraceFrame, s: SessionExchanges, ex: Exchange, parent: string, common: Attributes, opts: TraceOptions, decided: Map<string, FlowDecision[]>): SpanData {
  const { attrs, target } = targetOf(ex);
  const attributes = withCommon(common, { 'mcp.method.name': ex.method }, attrs, { 'jsonrpc.request.id': ex.id, 'engine.call.by': ex.from === 'client' ? 'agent' : 'proxy' });
  if (ex.after !== null) attributes['engine.call.after'] = ex.after;
  let status = UNSET;
  const a = ex.answer;
  if (a === null) attributes['engine.answered'] = false;
  else if (a.errorCode !== null) {
    attributes['error.type'] = a.errorCode;
    attributes['rpc.response.status_code'] = a.errorCode;
    status = { code: SpanStatusCode.ERROR, message: a.errorMessage ?? '' };
  } else if (a.toolError) {
    attributes['error.type'] = 'tool_error';
    status = { code: SpanStatusCode.ERROR, message: a.toolErrorText ?? '' };
  }
  if (opts.payloads && ex.method === 'tools/call') {
    attributes['gen_ai.tool.call.arguments'] = jsonText(ex.args);
    if (a !== null) attributes['gen_ai.tool.call.result'] = a.errorCode !== null ? jsonText(a.result) : a.text();
  }
  const end = a?.t ?? s.duration;
  // Filled by push: map() and spread make another array shape once optimized, which deoptimizes the transformer.
  const events: TimedEvent[] = [];
  if (ex.agentCall) for (const d of decided.get(ex.id) ?? []) events.push(decisionEvent(frame, end, d));
  return spanOf(frame, {
    part: `request ${ex.ordinal}`,
    parent,
    name: target === null ? ex.method : `${ex.method} ${target}`,
    kind: SpanKind.CLIENT,
    startMs: ex.t,
    endMs: end,
    attributes,
    events,
    status,
  });
}

/** A flow-log line: what the flow decided after the call (it has no time of its own: the answer's). */
function decisionEvent(frame: TraceFrame, atMs: number, d: FlowDecision): TimedEvent {
  const attributes: Attributes = {
    'engine.decision': d.action,
    'engine.site': d.site,
    'engine.address': d.address,
    'engine.shadow': d.shadow,
  };
  if (d.tool !== null) attributes['engine.lookup.tool'] = d.tool;
  if (d.prob !== null) attributes['engine.probability'] = d.prob;
  if (d.binding !== null) attributes['engine.binding'] = d.binding;
  if (d.reason !== null) attributes['engine.reason'] = d.reason;
  return { name: 'engine.decision', time: millisToHrTime(frame.startMs + atMs), attributes };
}

/**
 * The agent's turns as spans' extents, added to `spans`: tool-call turns take the agent's calls in order
 * (sessions.ts); answers which turn each call is in.
 */
function turnSpans(frame: TraceFrame, s: SessionExchanges, common: Attributes, spans: SpanData[]): Map<Exchange, number> {
  const agentCalls = s.exchanges.filter((e) => e.agentCall);
  const assistant = s.said.filter((m) => m.role === 'assistant' && m.content !== '');
  const turnOf = new Map<Exchange, number>();
  let nextCall = 0;
  let nextSaid = 0;
  s.turnCounts.forEach((n, index) => {
    let start = Infinity;
    let end = 0;
    if (n > 0) {
      for (const c of agentCalls.slice(nextCall, nextCall + n)) {
        turnOf.set(c, index);
        start = Math.min(start, c.t);
        end = Math.max(end, c.answer?.t ?? c.t);
      }
      nextCall += n;
    } else start = end = assistant[nextSaid++]?.t ?? 0;
    if (start === Infinity) start = 0;
    spans.push(
      spanOf(frame, {
        part: `turn ${index}`,
        parent: 'session',
        name: `turn ${index}`,
        kind: SpanKind.INTERNAL,
        startMs: start,
        endMs: end,
        attributes: withCommon(common, { 'engine.turn.index': index, 'engine.turn.calls': n }),
        events: [],
        status: UNSET,
      }),
    );
  });
  return turnOf;
}

/** The root's events: the notifications and the conversation's messages, in time order (the notices first at a tie). */
function rootEvents(s: SessionExchanges, opts: TraceOptions): TimedEvent[] {
  const startMs = s.header.started_unix_ms;
  const events: TimedEvent[] = [];
  for (const n of s.notices) {
    events.push({ name: n.method, time: millisToHrTime(startMs + n.t), attributes: { 'mcp.method.name': n.method, 'engine.from': n.from } });
  }
  for (const m of s.said) {
    const attributes: Attributes = { 'engine.role': m.role };
    if (opts.payloads) attributes['engine.content'] = m.content;
    events.push({ name: `engine.context.${m.role}`, time: millisToHrTime(startMs + m.t), attributes });
  }
  return events.sort(byTime);
}

const byTime = (a: TimedEvent, b: TimedEvent): number => a.time[0] - b.time[0] || a.time[1] - b.time[1];

/** The mode as the session list shows it (session-format §6.6). */
function modeOf(s: SessionExchanges, decisions: FlowDecision[]): string {
  const counts = countsOf(decisions);
  return s.proxyEntries || counts.acted ? 'served' : counts.shadowed ? 'shadow' : 'recorded';
}

/** What places a session's requests: its log (for errors), the flow's decisions and the calls' turns. */
interface RequestPlaces {
  path: string;
  decisions: FlowDecision[];
  turnOf: Map<Exchange, number>;
}

/** A span per request, added to `spans`: under the call it followed, else its turn, else the session. */
function requestSpans(frame: TraceFrame, s: SessionExchanges, common: Attributes, opts: TraceOptions, places: RequestPlaces, spans: SpanData[]): void {
  // The decisions by the call they followed, in the flow log's order.
  const decided = new Map<string, FlowDecision[]>();
  for (const d of places.decisions) {
    if (d.after === null) continue;
    const list = decided.get(d.after);
    if (list) list.push(d);
    else decided.set(d.after, [d]);
  }
  const byCall = new Map<string, Exchange>();
  // Reading is guarded by the reader; a log of very many small calls can still outgrow a worker's heap here.
  const heap = new HeapGuard();
  for (const ex of s.exchanges) {
    heap.check(0, () => `${places.path}: its trace`);
    let parent = 'session';
    const turn = places.turnOf.get(ex);
    if (turn !== undefined) parent = `turn ${turn}`;
    const followed = ex.after === null ? undefined : byCall.get(ex.after);
    if (followed) parent = `request ${followed.ordinal}`;
    if (ex.agentCall) byCall.set(ex.id, ex);
    spans.push(requestSpan(frame, s, ex, parent, common, opts, decided));
  }
}

/** A session's trace. Throws the reader's error for a log that is not a session log. */
export function sessionTrace(files: Pick<SessionFiles, 'path' | 'flowLog'>, opts: TraceOptions): SessionTrace {
  const s = sessionExchanges(files.path, opts.payloads);
  const decisions = files.flowLog === null ? [] : readFlowLog(files.flowLog).decisions;
  const h = s.header;
  const agent = h.agent_model !== null && h.agent_model !== '' ? h.agent_model : s.clientName;
  const resource: Attributes = {
    'service.name': 'engine-proxy',
    'service.version': opts.version,
    'engine.log.version': h.version,
    'engine.mode': modeOf(s, decisions),
  };
  if (h.domain !== null) resource['engine.domain'] = h.domain;
  if (agent !== null) resource['engine.agent'] = agent;
  const traceId = traceIdOf(h.session);
  const frame: TraceFrame = { traceId, spanId: spanIds(traceId), startMs: h.started_unix_ms };
  const common: Attributes = { 'gen_ai.conversation.id': h.session, ...upstreamAttributes(h.server_command) };
  if (s.protocolVersion !== null) common['mcp.protocol.version'] = s.protocolVersion;

  // Filled by push, as the events are (requestSpan says why).
  const spans: SpanData[] = [
    spanOf(frame, {
      part: 'session',
      parent: null,
      name: 'engine session',
      kind: SpanKind.INTERNAL,
      startMs: 0,
      endMs: s.duration,
      attributes: withCommon(common, { 'engine.turns': s.turnCounts.length, 'engine.requests': s.exchanges.length }),
      events: rootEvents(s, opts),
      status: UNSET,
    }),
  ];
  const turnOf = turnSpans(frame, s, common, spans);
  requestSpans(frame, s, common, opts, { path: files.path, decisions, turnOf }, spans);
  const scope = { name: 'engine-console', version: opts.version, schemaUrl: SEMCONV_SCHEMA_URL };
  return { sessionId: h.session, resource, scope, spans };
}
