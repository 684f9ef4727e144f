// Session logs too big for a worker. The killer: 250 answers of 21,000 empty objects each (16 MB), on lines
// short enough that the reader's heap guard looks only every 256 of them, so, where the answers are held (an
// export with payloads), the objects fill a worker's 128 MB heap between two looks and the worker dies in
// about two seconds instead of refusing the log. The many-calls log: 100,000 small calls (21 MB), whose
// trace outgrows a worker's heap however little of each call is kept, so the export refuses it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `<dir>/<session>.jsonl` (the session id is its stem, so it is also its key). */
export function writeWorkerKiller(dir: string, session: string): void {
  const rows = Array.from({ length: 21_000 }, () => ({}));
  const lines = [JSON.stringify({ engine_mcp_log: 2, session, started_unix_ms: 1790561040548, server_command: ['demo'], domain: 'shop', agent_model: null })];
  for (let i = 0; i < 250; i++) {
    lines.push(JSON.stringify({ t_ms: i, from: 'client', message: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'q', arguments: {} } } }));
    lines.push(JSON.stringify({ t_ms: i, from: 'server', message: { id: i, jsonrpc: '2.0', result: { rows } } }));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${session}.jsonl`), `${lines.join('\n')}\n`);
}

/** Writes `<dir>/<session>.jsonl`: `calls` tools/call requests, each answered. */
export function writeManyCalls(dir: string, session: string, calls = 100_000): void {
  const lines = [JSON.stringify({ engine_mcp_log: 2, session, started_unix_ms: 1790561040548, server_command: ['demo'], domain: 'shop', agent_model: null })];
  for (let i = 0; i < calls; i++) {
    lines.push(JSON.stringify({ t_ms: i, from: 'client', message: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'q', arguments: {} } } }));
    lines.push(JSON.stringify({ t_ms: i, from: 'server', message: { id: i, jsonrpc: '2.0', result: {} } }));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${session}.jsonl`), `${lines.join('\n')}\n`);
}
