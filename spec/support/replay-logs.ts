// Session logs shaped as the proxy records them, for the replay tests: a header, the initialize and tools/list
// exchange, then each tools/call with its answer. The answers either come from a real server, asked now over
// stdio (`askServer`), or are given (a write that must never be sent, a tool the server no longer has).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

export interface LoggedCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The answer's `result` or `error`. */
  answer: { result: unknown } | { error: unknown };
}

export interface LogSpec {
  dir: string;
  session: string;
  domain: string;
  startedMs: number;
  /** The recorded tools/list's tools. */
  tools: unknown[];
  calls: LoggedCall[];
}

/** Writes `<dir>/<session>.jsonl`; returns its path. */
export function writeSessionLog(spec: LogSpec): string {
  mkdirSync(spec.dir, { recursive: true });
  const lines: unknown[] = [
    { engine_mcp_log: 2, session: spec.session, started_unix_ms: spec.startedMs, server_command: ['replay-test'], domain: spec.domain, agent_model: null },
    { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } } },
    { t_ms: 2, from: 'server', message: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } } },
    { t_ms: 3, from: 'client', message: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } },
    { t_ms: 4, from: 'server', message: { jsonrpc: '2.0', id: 2, result: { tools: spec.tools } } },
  ];
  spec.calls.forEach((c, i) => {
    const id = 3 + i;
    lines.push({ t_ms: 10 + 2 * i, from: 'client', message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: c.name, arguments: c.arguments } } });
    lines.push({ t_ms: 11 + 2 * i, from: 'server', message: { jsonrpc: '2.0', id, ...c.answer } });
  });
  const path = join(spec.dir, `${spec.session}.jsonl`);
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return path;
}

/** Starts `command`, initializes, asks tools/list and each call; answers the tools and each call's answer. */
export async function askServer(command: string[], calls: { name: string; arguments: Record<string, unknown> }[]): Promise<{ tools: unknown[]; answers: LoggedCall['answer'][] }> {
  const [program = '', ...args] = command;
  const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    const m: unknown = JSON.parse(line);
    if (isRecord(m) && typeof m.id === 'number') waiting.get(m.id)?.(m);
  });
  const ask = (id: number, method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    await ask(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const listed = await ask(2, 'tools/list', {});
    const result = isRecord(listed.result) && Array.isArray(listed.result.tools) ? { tools: listed.result.tools } : { tools: [] };
    const answers: LoggedCall['answer'][] = [];
    for (const [i, c] of calls.entries()) {
      const m = await ask(3 + i, 'tools/call', { name: c.name, arguments: c.arguments });
      answers.push('error' in m ? { error: m.error } : { result: m.result });
    }
    return { tools: result.tools, answers };
  } finally {
    child.kill('SIGKILL');
  }
}
