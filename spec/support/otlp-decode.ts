// Decoding an OTLP trace export the way a collector does, independently of the exporter's own code: the
// protobuf through protobufjs with the message definitions of opentelemetry-proto v1 (collector/trace,
// trace, common, resource: names and field numbers as published), the JSON through the OTLP/JSON mapping
// (lowerCamelCase fields, hex ids, 64-bit integers as strings). Both give the same plain form, and a checker
// holds it to the session log it came from, read here with JSON.parse alone.
import protobuf from 'protobufjs';
import { readFileSync } from 'node:fs';

const PROTO = `
syntax = "proto3";
package opentelemetry.proto;
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message Status { string message = 2; int32 code = 3; }
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10; repeated Event events = 11;
  uint32 dropped_events_count = 12; repeated Link links = 13; uint32 dropped_links_count = 14; Status status = 15;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;

const Request = protobuf.parse(PROTO, { keepCase: false }).root.lookupType('opentelemetry.proto.ExportTraceServiceRequest');

export type Attr = string | number | boolean | null;
export interface PlainSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's enum: 1 internal, 2 server, 3 client. */
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, Attr>;
  events: { name: string; time: bigint; attributes: Record<string, Attr> }[];
  status: { code: number; message: string };
}
export interface PlainExport {
  resources: { attributes: Record<string, Attr>; spans: PlainSpan[] }[];
}

type Loose = Record<string, unknown>;
const list = (v: unknown): Loose[] => (Array.isArray(v) ? (v as Loose[]) : []);
const hex = (v: unknown): string => (typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : '');
const big = (v: unknown): bigint => (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? BigInt(v) : BigInt(String(v ?? 0)));

function value(v: unknown): Attr {
  const a = (v ?? {}) as Loose;
  if ('stringValue' in a) return String(a.stringValue);
  if ('boolValue' in a) return Boolean(a.boolValue);
  if ('intValue' in a) return Number(a.intValue);
  if ('doubleValue' in a) return Number(a.doubleValue);
  return null;
}
function attributes(v: unknown): Record<string, Attr> {
  const out: Record<string, Attr> = {};
  for (const kv of list(v)) out[String(kv.key)] = value(kv.value);
  return out;
}

/** The common form of a decoded request (protobuf via toObject, or the JSON itself). */
function plain(o: Loose): PlainExport {
  return {
    resources: list(o.resourceSpans).map((rs) => ({
      attributes: attributes((rs.resource as Loose | undefined)?.attributes),
      spans: list(rs.scopeSpans).flatMap((ss) =>
        list(ss.spans).map((s) => ({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          start: big(s.startTimeUnixNano),
          end: big(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: list(s.events).map((e) => ({ name: String(e.name), time: big(e.timeUnixNano), attributes: attributes(e.attributes) })),
          status: { code: Number((s.status as Loose | undefined)?.code ?? 0), message: String((s.status as Loose | undefined)?.message ?? '') },
        })),
      ),
    })),
  };
}

export function decodeProtobuf(bytes: Uint8Array): PlainExport {
  const msg = Request.decode(bytes);
  return plain(Request.toObject(msg, { longs: String, bytes: Uint8Array, defaults: false }) as Loose);
}

/** OTLP/JSON: also checked to be the protobuf message's JSON form (it must convert through the definitions). */
export function decodeJson(text: string): PlainExport {
  const o = JSON.parse(text) as Loose;
  const msg = Request.fromObject(withBytes(o) as Loose);
  const err = Request.verify(msg);
  if (err !== null) throw new Error(`not an ExportTraceServiceRequest: ${err}`);
  const back = plain(Request.toObject(Request.decode(Request.encode(msg).finish()), { longs: String, bytes: Uint8Array }) as Loose);
  // Nothing of the JSON may be lost on the way through the definitions (a misspelt field would be).
  const direct = plain(o);
  if (JSON.stringify(direct, big2s) !== JSON.stringify(back, big2s)) throw new Error('the JSON has fields the OTLP definitions do not know');
  return back;
}

const big2s = (_: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

/** The JSON with its hex ids as bytes, as protobufjs's verifier wants them. */
function withBytes(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(withBytes);
  if (o === null || typeof o !== 'object') return o;
  const out: Loose = {};
  for (const [k, v] of Object.entries(o)) {
    out[k] = /^(traceId|spanId|parentSpanId)$/.test(k) && typeof v === 'string' ? Buffer.from(v, 'hex') : withBytes(v);
  }
  return out;
}

/** The attributes only an export with payloads holds (arguments, results, the conversation's texts). */
const PAYLOAD_KEYS = ['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'engine.content'];

/**
 * An export with payloads less its payload attributes: what the export without them must be. (Without
 * payloads the export takes plain answers and the conversation from their text unparsed; with them, it
 * parses every line, so this holds the quick reading to a full parse.)
 */
export function withoutPayloads(out: PlainExport): PlainExport {
  const less = (a: Record<string, Attr>): Record<string, Attr> => Object.fromEntries(Object.entries(a).filter(([k]) => !PAYLOAD_KEYS.includes(k)));
  return {
    resources: out.resources.map((r) => ({
      attributes: r.attributes,
      spans: r.spans.map((s) => ({ ...s, attributes: less(s.attributes), events: s.events.map((e) => ({ ...e, attributes: less(e.attributes) })) })),
    })),
  };
}

interface LoggedRequest {
  from: string;
  method: string;
  id: string;
  t: number;
  params: Loose;
  answer: { t: number; message: Loose } | null;
}

/** The requests of a log by the agent or the proxy and their first answers, read with JSON.parse alone. */
export function loggedRequests(path: string): { header: Loose; requests: LoggedRequest[]; lastT: number } {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const header = JSON.parse(lines[0]!) as Loose;
  const requests: LoggedRequest[] = [];
  const pending = new Map<string, LoggedRequest>();
  let lastT = 0;
  for (const line of lines.slice(1)) {
    const e = JSON.parse(line) as { t_ms: number; from: string; message?: unknown };
    lastT = Math.max(lastT, e.t_ms);
    const ms = Array.isArray(e.message) ? e.message : e.message === undefined || e.message === null ? [] : [e.message];
    for (const m of ms as Loose[]) {
      if (m === null || typeof m !== 'object' || Array.isArray(m) || e.from === 'context') continue;
      const hasId = m.id !== undefined && m.id !== null;
      if (typeof m.method === 'string') {
        if (!hasId || e.from === 'server') continue;
        const r: LoggedRequest = { from: e.from, method: m.method, id: typeof m.id === 'string' ? m.id : JSON.stringify(m.id), t: e.t_ms, params: (m.params ?? {}) as Loose, answer: null };
        requests.push(r);
        pending.set(JSON.stringify(m.id), r);
      } else if (hasId && e.from !== 'client' && ('result' in m || (m.error !== undefined && m.error !== null))) {
        const r = pending.get(JSON.stringify(m.id));
        if (!r) continue;
        pending.delete(JSON.stringify(m.id));
        r.answer = { t: e.t_ms, message: m };
      }
    }
  }
  return { header, requests, lastT };
}

const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;

/**
 * Holds one session's export to its log: one trace, one root, every parent in the trace, ids of 16 and 8
 * bytes, every request a CLIENT span named and attributed by the MCP conventions, times in order. Throws
 * with what is wrong.
 */
export function holdToSession(out: PlainExport, logPath: string): void {
  const fail = (why: string): never => {
    throw new Error(`${logPath}: ${why}`);
  };
  const { header, requests, lastT } = loggedRequests(logPath);
  if (out.resources.length !== 1) fail(`expected one resource, got ${out.resources.length}`);
  const spans = out.resources[0]!.spans;
  const traceIds = new Set(spans.map((s) => s.traceId));
  if (traceIds.size !== 1) fail(`expected one trace id, got ${traceIds.size}`);
  const ids = new Map(spans.map((s) => [s.spanId, s]));
  if (ids.size !== spans.length) fail('two spans share an id');
  for (const s of spans) {
    if (!/^[0-9a-f]{32}$/.test(s.traceId) || /^0+$/.test(s.traceId)) fail(`trace id ${s.traceId}`);
    if (!/^[0-9a-f]{16}$/.test(s.spanId) || /^0+$/.test(s.spanId)) fail(`span id ${s.spanId}`);
    if (s.parentSpanId !== '' && !ids.has(s.parentSpanId)) fail(`${s.name}: its parent is not in the trace`);
    if (s.start > s.end) fail(`${s.name} ends before it starts`);
  }
  const roots = spans.filter((s) => s.parentSpanId === '');
  if (roots.length !== 1) fail(`expected one root span, got ${roots.length}`);
  const root = roots[0]!;
  if (root.attributes['gen_ai.conversation.id'] !== header.session) fail('the root does not carry the session id');
  const started = BigInt(header.started_unix_ms as number);
  if (root.start !== ns(Number(started)) || root.end !== ns(Number(started) + lastT)) fail('the root does not span the log');
  for (const s of spans) {
    if (s.start < root.start || s.end > root.end) fail(`${s.name} lies outside the session`);
    const parent = ids.get(s.parentSpanId);
    if (parent && s.start < parent.start) fail(`${s.name} starts before its parent ${parent.name}`);
  }
  const calls = spans.filter((s) => s.kind === 3);
  if (calls.length !== requests.length) fail(`${requests.length} requests in the log, ${calls.length} CLIENT spans`);
  const matched = new Set<PlainSpan>();
  for (const r of requests) {
    const s = calls.find((c) => !matched.has(c) && c.attributes['jsonrpc.request.id'] === r.id && c.start === ns(Number(started) + r.t) && c.attributes['mcp.method.name'] === r.method);
    if (!s) return fail(`no span for ${r.method} ${r.id} at ${r.t} ms`);
    matched.add(s);
    const tool = r.method === 'tools/call' && typeof r.params.name === 'string' ? r.params.name : null;
    const prompt = r.method === 'prompts/get' && typeof r.params.name === 'string' ? r.params.name : null;
    const target = tool ?? prompt;
    if (s.name !== (target === null ? r.method : `${r.method} ${target}`)) fail(`span ${s.name} for ${r.method} ${target ?? ''}`);
    if (prompt !== null && s.attributes['gen_ai.prompt.name'] !== prompt) fail(`${s.name}: prompt attribute`);
    if (tool !== null && (s.attributes['gen_ai.tool.name'] !== tool || s.attributes['gen_ai.operation.name'] !== 'execute_tool')) fail(`${s.name}: tool attributes`);
    if (s.parentSpanId === '') fail(`${s.name} has no parent`);
    if (r.answer !== null) {
      if (s.end !== ns(Number(started) + r.answer.t)) fail(`${s.name} does not end at its answer`);
      const m = r.answer.message;
      const err = m.error as Loose | null | undefined;
      if (err !== undefined && err !== null) {
        if (typeof err.code === 'number' && s.attributes['rpc.response.status_code'] !== String(err.code)) fail(`${s.name}: status code`);
        if (s.status.code !== 2) fail(`${s.name}: an error answer without an error status`);
      } else if ((m.result as Loose | null)?.isError === true) {
        if (s.attributes['error.type'] !== 'tool_error' || s.status.code !== 2) fail(`${s.name}: a tool error not marked`);
      } else if ('error.type' in s.attributes) fail(`${s.name}: marked as an error`);
    } else if (s.attributes['engine.answered'] !== false) fail(`${s.name}: unanswered but not marked`);
  }
}
