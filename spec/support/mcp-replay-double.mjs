// An MCP server for the replay tests, over stdio: read-only tools that answer the same, answer with a fresh
// stamp, answer a JSON-RPC error, answer isError, answer late; a tool with no hints and one marked read-only
// here whose recording said otherwise. Each tools/call it receives is appended to the file named by argv[2],
// so a test can tell which calls were sent.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const calledLog = process.argv[2] ?? null;
if (calledLog) appendFileSync(calledLog, `pid ${process.pid}\n`);
const ro = { readOnlyHint: true };
const tools = [
  { name: 'echo', annotations: ro },
  { name: 'stamped', annotations: ro },
  { name: 'fails', annotations: ro },
  { name: 'is_error', annotations: ro },
  { name: 'slow', annotations: ro },
  { name: 'unhinted' },
  { name: 'was_write', annotations: ro },
].map((t) => ({ description: t.name, inputSchema: { type: 'object' }, ...t }));

const send = (m) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
let stamp = 0;

function answer(id, name, args) {
  if (name === 'echo' || name === 'unhinted' || name === 'was_write') return send({ id, result: text(args) });
  if (name === 'stamped') return send({ id, result: text({ ...args, at: Date.now() + stamp++, ok: true }) });
  if (name === 'fails') return send({ id, error: { code: -32000, message: 'the backend is down' } });
  if (name === 'is_error') return send({ id, result: { ...text({ reason: 'no such order' }), isError: true } });
  if (name === 'slow') return setTimeout(() => send({ id, result: text(args) }), Number(args.ms ?? 0));
  send({ id, error: { code: -32602, message: `unknown tool ${name}` } });
}

for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.id === undefined) continue;
  if (m.method === 'initialize') {
    send({ id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'replay-double', version: '1' } } });
  } else if (m.method === 'tools/list') {
    send({ id: m.id, result: { tools } });
  } else if (m.method === 'tools/call') {
    if (calledLog) appendFileSync(calledLog, `${m.params.name}\n`);
    answer(m.id, m.params.name, m.params.arguments ?? {});
  } else {
    send({ id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
}
