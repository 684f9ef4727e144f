// Session logs the session-page browser specs write into their temp data directory (not a spec itself).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LONG_ID = '20261102T000000.000Z-5150';
export const LONG_CALLS = 120;
export const TOOLS = ['search_products', 'get_order', 'cancel_order'];
/** The call whose answer holds the magic word (call ids are n + 10). */
export const MAGIC_CALL = 77;

/** A long recorded session: one call a second, every tenth failing, the magic word in one answer and one message. */
export function longLog(): string {
  const lines: unknown[] = [
    { engine_mcp_log: 2, session: LONG_ID, started_unix_ms: 1793577600000, server_command: ['shop-mcp'], domain: 'shop', agent_model: 'agent' },
    { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
    { t_ms: 2, from: 'server', message: { jsonrpc: '2.0', id: 1, result: { tools: TOOLS.map((name) => ({ name, annotations: { readOnlyHint: name !== 'cancel_order' } })) } } },
    { t_ms: 5, from: 'context', message: { role: 'user', content: 'Please look for the magic word in my orders.' } },
  ];
  for (let n = 0; n < LONG_CALLS; n++) {
    const t = 1000 + n * 1000;
    const id = n + 10;
    lines.push({ t_ms: t, from: 'client', message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: TOOLS[n % 3], arguments: { query: `q${n}` } } } });
    const text = n === MAGIC_CALL ? `result ${n}: the MAGIC word` : `result ${n}: nothing special`;
    lines.push({ t_ms: t + 40, from: 'server', message: { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: n % 10 === 3 } } });
  }
  lines.push({ t_ms: 1000 + LONG_CALLS * 1000, from: 'context', message: { role: 'assistant', content: 'All done.' } });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export const BIG_ID = '20261103T000000.000Z-6160';
/** An answer over the 1 MB display limit, whose last words show only when it is shown whole. */
export const BIG_TEXT = `${'a line of a very long file\n'.repeat(100_000)}the-very-end`;

export function bigAnswerLog(): string {
  const lines: unknown[] = [
    { engine_mcp_log: 2, session: BIG_ID, started_unix_ms: 1793664000000, server_command: ['files-mcp'], domain: 'files', agent_model: 'agent' },
    { t_ms: 4, from: 'client', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'big.txt' } } } },
    { t_ms: 9, from: 'server', message: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: BIG_TEXT }], isError: false } } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export function writeLogs(home: string): void {
  mkdirSync(join(home, 'logs/shop'), { recursive: true });
  mkdirSync(join(home, 'logs/files'), { recursive: true });
  writeFileSync(join(home, 'logs/shop', `${LONG_ID}.jsonl`), longLog());
  writeFileSync(join(home, 'logs/files', `${BIG_ID}.jsonl`), bigAnswerLog());
}
