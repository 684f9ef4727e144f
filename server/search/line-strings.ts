// Which decoded strings of a line are searched, and what part of the session each is: a call's arguments,
// its answer, the conversation, the flow's own logs, or anything else a message carries. Keys are never
// searched, nor the fields the engine writes about a line (`t_ms`, `from`, the header), nor the JSON-RPC
// envelope (`jsonrpc`, `method`, `id`), which every message has.
import type { SearchWhere } from '../../shared/search.ts';

export type LogKind = 'session' | 'flow' | 'confirm';

/** A string to search and where it sits. */
export interface Located {
  text: string;
  where: SearchWhere;
  tool: string | null;
}

/** The tool of the call a response answers (by its id as compact JSON), or null when it answers none. */
export type CallOf = (idKey: string) => string | null;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isObject = (x: unknown): x is Record<string, Json> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Every string value inside `x`, depth first, keys left out. */
export function* stringsIn(x: unknown): Generator<string> {
  if (typeof x === 'string') yield x;
  else if (Array.isArray(x)) for (const y of x) yield* stringsIn(y);
  else if (isObject(x)) for (const k in x) yield* stringsIn(x[k]);
}

const ENVELOPE = new Set(['jsonrpc', 'method', 'id']);

function* located(x: unknown, where: SearchWhere, tool: string | null, skip?: ReadonlySet<string>): Generator<Located> {
  if (skip && isObject(x)) {
    for (const k in x) if (!skip.has(k)) for (const text of stringsIn(x[k])) yield { text, where, tool };
    return;
  }
  for (const text of stringsIn(x)) yield { text, where, tool };
}

const ROLE = new Set(['role']);

function* messageStrings(m: unknown, from: unknown, callOf: CallOf): Generator<Located> {
  if (from === 'context') {
    yield* located(m, 'conversation', null, ROLE);
    return;
  }
  if (!isObject(m)) {
    yield* located(m, 'other', null);
    return;
  }
  const params = m.params;
  if (m.method === 'tools/call' && (from === 'client' || from === 'proxy') && isObject(params) && typeof params.name === 'string') {
    yield* located(params.arguments, 'arguments', params.name);
    return;
  }
  if (!('method' in m) && (from === 'server' || from === 'proxy') && m.id !== undefined && m.id !== null) {
    const tool = callOf(JSON.stringify(m.id));
    if (tool !== null) {
      yield* located(m, 'result', tool, ENVELOPE);
      return;
    }
  }
  yield* located(m, 'other', null, ENVELOPE);
}

/** The strings of one parsed line of a session log (not its header). */
export function* sessionLineStrings(line: unknown, callOf: CallOf): Generator<Located> {
  if (!isObject(line)) return;
  if (typeof line.raw === 'string') yield { text: line.raw, where: line.from === 'context' ? 'conversation' : 'other', tool: null };
  const m = line.message;
  if (Array.isArray(m)) for (const each of m) yield* messageStrings(each, line.from, callOf);
  else if (m !== undefined && m !== null) yield* messageStrings(m, line.from, callOf);
}

/** The strings of one line of a flow or confirmation log: the arguments, the reason, the runs' site values. */
export function* companionLineStrings(line: unknown): Generator<Located> {
  if (!isObject(line)) return;
  const tool = typeof line.tool === 'string' ? line.tool : null;
  yield* located(line.arguments, 'flow', tool);
  if (typeof line.reason === 'string') yield { text: line.reason, where: 'flow', tool };
  if (Array.isArray(line.sites)) for (const site of line.sites) if (Array.isArray(site)) yield* located(site[1], 'flow', null);
}

/** Whether a parsed first line is a session log's header (the engine's own fields, never searched). */
export const isHeader = (line: unknown): boolean => isObject(line) && 'engine_mcp_log' in line;
