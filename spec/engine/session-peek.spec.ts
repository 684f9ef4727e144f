// The summary's look at a line before parsing it: messages in the proxy's own compact shape are read by a
// quick match, any other spelling field by field; both must give the same summary.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { tempDir } from '../support/fixtures.ts';

const peek = suite('session-peek');
let temp: { dir: string; cleanup: () => void };
peek.before(() => {
  temp = tempDir();
});
peek.after(() => temp.cleanup());

type Msg = Record<string, unknown>;
const HEADER = JSON.stringify({ engine_mcp_log: 2, session: 'p', started_unix_ms: 1_700_000_000_000, server_command: ['srv'] });

/** The lines of a session; `spaced` writes every message with spaces between its tokens. */
function write(name: string, lines: [number, string, Msg][], spaced: boolean): string {
  const path = join(temp.dir, `${name}.jsonl`);
  const text = lines.map(([t, from, m]) => {
    const body = spaced ? JSON.stringify(m, null, 1).replace(/\n/g, '') : JSON.stringify(m);
    return `{"t_ms":${t},"from":"${from}","message":${body}}`;
  });
  writeFileSync(path, `${[HEADER, ...text].join('\n')}\n`);
  return path;
}

const req = (id: unknown, method: string, params: unknown): Msg => ({ jsonrpc: '2.0', id, method, params });
const ok = (id: unknown, text: string, first: 'id' | 'jsonrpc' = 'id'): Msg =>
  first === 'id'
    ? { id, jsonrpc: '2.0', result: { content: [{ type: 'text', text }], isError: false } }
    : { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: false } };
const failed = (id: unknown): Msg => ({ id, jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'no' }], isError: true } });
const call = (id: unknown, tool: string) => req(id, 'tools/call', { name: tool, arguments: { id } });

const LINES: [number, string, Msg][] = [
  [0, 'client', req(1, 'initialize', { clientInfo: { name: 'agent' } })],
  [1, 'client', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  [2, 'client', req(2, 'tools/list', {})],
  [3, 'server', ok(2, 'x', 'jsonrpc')],
  [10, 'client', call(3, 'a')],
  [12, 'server', ok(3, 'three')],
  [20, 'client', call('s-4', 'b')],
  [25, 'server', ok('s-4', 'four', 'jsonrpc')],
  [30, 'client', call('q"5', 'c')],
  [31, 'server', ok('q"5', 'five')],
  [40, 'client', call(12345678901234567, 'd')],
  [41, 'server', ok(12345678901234567, 'big')],
  [50, 'client', call(6, 'e')],
  [52, 'server', ok('6', 'not the same id')],
  [60, 'client', call(7, 'f')],
  [61, 'server', failed(7)],
  [70, 'client', call(8, 'g')],
  [71, 'server', { id: 8, jsonrpc: '2.0', error: { code: -1, message: 'bad' } }],
  [80, 'client', call(0, 'h')],
  [90, 'server', ok(0, 'zero')],
  [91, 'client', req(9, 'resources/list', {})],
  [92, 'server', ok(9, 'ignored')],
];

peek('a session reads the same in the compact shape and spelled with spaces', () => {
  const compact = sessionSummary({ key: 'p', rel: 'c.jsonl', path: write('c', LINES, false), flowLog: null, confirmLog: null });
  const spaced = sessionSummary({ key: 'p', rel: 'c.jsonl', path: write('s', LINES, true), flowLog: null, confirmLog: null });
  assert.equal({ ...compact, size_bytes: 0 }, { ...spaced, size_bytes: 0 });
  assert.is(compact.agent, 'agent');
  assert.is(compact.tool_calls, 8);
  assert.is(compact.errors, 2);
});

peek('the compact summary agrees with the detail, which parses every line', () => {
  const files = { key: 'p', rel: 'c.jsonl', path: write('d', LINES, false), flowLog: null, confirmLog: null };
  const { tools_called: called, shadow_decisions: shadow, ...wire } = sessionSummary(files);
  assert.is(shadow, 0);
  const detail = sessionDetail(files);
  assert.equal(wire, detail.summary);
  assert.equal(called, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  // The call answered with "6" for the id 6 stays unanswered; the others are answered.
  assert.equal(detail.calls.map((c) => c.ok), [true, true, true, true, null, false, false, true]);
});

peek.run();
