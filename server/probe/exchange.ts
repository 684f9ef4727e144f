// The MCP exchange of a connection test (console-api.md §4.18), whatever carries it: `initialize`, the
// `initialized` notification, then `tools/list` page by page; and how a listed tool reads as the console
// shows it. The transports (stdio.ts, http.ts) only move JSON-RPC messages.
import { PROBE_MAX_PAGES, PROBE_PROTOCOL } from '../../shared/limits.ts';
import type { ProbeResult } from '../../shared/servers.ts';
import type { ToolInfo } from '../../shared/sessions.ts';
import { compareText } from '../engine/format.ts';

export type JsonObject = Record<string, unknown>;
export type Outcome = Omit<ProbeResult, 'ms' | 'flow_warnings' | 'stderr_tail'>;

/** A failure whose message is the test's `error`. */
export class ProbeFailure extends Error {}

export const isObject = (x: unknown): x is JsonObject => typeof x === 'object' && x !== null && !Array.isArray(x);
export const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const bool = (x: unknown): boolean | null => (typeof x === 'boolean' ? x : null);

/** The CLI's input contract: `name:type!` per property (`!` when required), sorted, joined with ", ". */
export function inputContract(schema: unknown): string {
  if (!isObject(schema)) return '';
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const parts = Object.entries(properties).map(([name, prop]) => {
    const t = isObject(prop) ? prop.type : undefined;
    const type =
      typeof t === 'string' ? t : Array.isArray(t) && t.every((x) => typeof x === 'string') ? t.join('|') : 'any';
    return `${name}:${type}${required.has(name) ? '!' : ''}`;
  });
  return parts.sort(compareText).join(', ');
}

/** One listed tool as the console shows it; its kind comes from annotations.readOnlyHint. */
export function toolInfo(tool: unknown): ToolInfo {
  const t = isObject(tool) ? tool : {};
  const annotations = isObject(t.annotations) ? t.annotations : {};
  const readOnly = bool(annotations.readOnlyHint);
  return {
    name: str(t.name) ?? '',
    kind: readOnly === true ? 'read' : readOnly === false ? 'write' : 'generic',
    description: str(t.description),
    read_only_hint: readOnly,
    destructive_hint: bool(annotations.destructiveHint),
    contract: t.inputSchema === undefined ? null : inputContract(t.inputSchema),
  };
}

export function request(id: number, method: string, params: JsonObject): JsonObject {
  return { jsonrpc: '2.0', id, method, params };
}

/** Whether `message` answers request `id`: same numeric id, no method, a result or an error. */
export function answers(message: unknown, id: number): message is JsonObject {
  return isObject(message) && message.id === id && !('method' in message) && ('result' in message || 'error' in message);
}

/** The answer's result, or the failure an error answer means. */
function resultOf(answer: JsonObject, method: string): JsonObject {
  if (answer.error !== undefined && answer.error !== null) {
    const message = isObject(answer.error) ? str(answer.error.message) : null;
    throw new ProbeFailure(`the server answered ${method} with an error: ${message ?? '(no message)'}`);
  }
  return isObject(answer.result) ? answer.result : {};
}

/** Sends one request and waits for its answer; the transport differs, the exchange does not. */
export interface Transport {
  call(id: number, method: string, params: JsonObject): Promise<JsonObject>;
  notify(method: string): Promise<void>;
  close(): Promise<void>;
}

export async function exchange(transport: Transport, version: string): Promise<Outcome> {
  const init = resultOf(
    await transport.call(1, 'initialize', {
      protocolVersion: PROBE_PROTOCOL,
      capabilities: {},
      clientInfo: { name: 'engine-console', version },
    }),
    'initialize',
  );
  await transport.notify('notifications/initialized');
  const tools: unknown[] = [];
  let params: JsonObject = {};
  for (let page = 0; page < PROBE_MAX_PAGES; page++) {
    const result = resultOf(await transport.call(2 + page, 'tools/list', params), 'tools/list');
    if (Array.isArray(result.tools)) tools.push(...result.tools);
    const cursor = str(result.nextCursor);
    if (cursor === null) break;
    params = { cursor };
  }
  const info = isObject(init.serverInfo) ? init.serverInfo : {};
  const listed = tools.map(toolInfo).sort((a, b) => compareText(a.name, b.name));
  return {
    ok: true,
    error: null,
    server_name: str(info.name),
    server_version: str(info.version),
    protocol_version: str(init.protocolVersion),
    instructions: str(init.instructions),
    tools: listed,
  };
}

export function failed(error: string): Outcome {
  return { ok: false, error, server_name: null, server_version: null, protocol_version: null, instructions: null, tools: [] };
}
