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

/** A log of these lines as they stand (the header added). */
function writeRaw(name: string, lines: string[]): { key: string; rel: string; path: string; flowLog: null; confirmLog: null } {
  const path = join(temp.dir, `${name}.jsonl`);
  writeFileSync(path, `${[HEADER, ...lines].join('\n')}\n`);
  return { key: 'p', rel: `${name}.jsonl`, path, flowLog: null, confirmLog: null };
}

const CONTEXT_LINES = [
  '{"t_ms":10,"from":"client","message":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a","arguments":{"q":"x"}}}}',
  '{"t_ms":12,"from":"server","message":{"id":3,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"found ord-77"}],"isError":false}}}',
  // Said between the answer and the next call, escaped: the call passes nothing new, so it stays in the turn.
  String.raw`{"t_ms":13,"from":"context","message":{"role":"tool","content":"\u006frd-77 is \"open\"\n"}}`,
  '{"t_ms":14,"from":"client","message":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"b","arguments":{"order":"ord-77"}}}}',
  '{"t_ms":15,"from":"server","message":{"id":4,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"ok"}],"isError":false}}}',
  '{"t_ms":16,"from":"context","message":{"role":"assistant","content":"done"}}',
  '{"t_ms":17,"from":"context","message":{"role":"assistant","content":""}}',
  '{"t_ms":18,"from":"context","message":{"role":"assistant","content":"later","extra":1}}',
  '{"t_ms":19,"from":"context","message":{"role":"assistant","content":"a\\"b","content":"dup wins"}}',
];

peek('context lines of the writer\'s shape are taken unparsed, and give the summary the detail gives', () => {
  const files = writeRaw('ctx', CONTEXT_LINES);
  const { tools_called: _called, shadow_decisions: _shadow, ...wire } = sessionSummary(files);
  assert.equal(wire, sessionDetail(files).summary);
  // One turn of two calls (the value the second passes was said after the first's answer), then three
  // agent messages: "done", the one with an extra field, and the duplicate-field one; the empty one is none.
  assert.is(wire.llm_turns, 4);
  assert.is(wire.tool_calls, 2);
  // The same lines spelled with spaces are parsed, and read the same.
  const spaced = writeRaw('ctx-spaced', CONTEXT_LINES.map((l) => JSON.stringify(JSON.parse(l), null, 1).replace(/\n/g, '')));
  assert.equal({ ...sessionSummary(spaced), size_bytes: 0, path: '' }, { ...sessionSummary(files), size_bytes: 0, path: '' });
});

peek('a context line the writer could not have written still makes the log unreadable', () => {
  const surrogate = writeRaw('ctx-surrogate', [...CONTEXT_LINES.slice(0, 2), String.raw`{"t_ms":13,"from":"context","message":{"role":"user","content":"\ud800"}}`]);
  assert.throws(() => sessionSummary(surrogate), /lone surrogate/);
  const control = writeRaw('ctx-control', [...CONTEXT_LINES.slice(0, 2), '{"t_ms":13,"from":"context","message":{"role":"user","content":"a\tb"}}']);
  assert.throws(() => sessionSummary(control), /parsing .*line 4/);
  const badEscape = writeRaw('ctx-escape', [...CONTEXT_LINES.slice(0, 2), String.raw`{"t_ms":13,"from":"context","message":{"role":"user","content":"a\qb"}}`]);
  assert.throws(() => sessionSummary(badEscape), /parsing .*line 4/);
});

peek('a log read in chunks: long lines are looked at by their head before they are decoded, and read as the detail reads them', () => {
  // Over 1 MiB, the reader takes the file in chunks; a line longer than the look's head is first looked at
  // by its head and its bytes. Each kind of long line below must come out as the detail (which parses every
  // line) reads it.
  const long = (n: number) => 'x'.repeat(n);
  const lines = [
    ...CONTEXT_LINES.slice(0, 2),
    // A long context message: its text is needed (turns), so the line is read whole.
    `{"t_ms":13,"from":"context","message":{"role":"user","content":"${long(2_000)} ord-88"}}`,
    '{"t_ms":14,"from":"client","message":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"b","arguments":{"order":"ord-88"}}}}',
    // A plain success of 700 KB: taken by its head and its ending, never decoded.
    `{"t_ms":15,"from":"server","message":{"id":4,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"${long(700_000)}"}],"isError":false}}}`,
    `{"t_ms":20,"from":"client","message":{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"c","arguments":{"pad":"${long(1_000)}"}}}}`,
    // A failure that does not end as a success does: its bytes are searched.
    `{"t_ms":21,"from":"server","message":{"id":5,"jsonrpc":"2.0","result":{"isError":true,"content":[{"type":"text","text":"${long(400_000)}"}]}}}`,
    '{"t_ms":30,"from":"client","message":{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"d","arguments":{}}}}',
    // Spelled with spaces: not the writer's shape, so the head cannot tell; read whole.
    `{"t_ms":31,"from":"server","message":{ "id": 6, "jsonrpc": "2.0", "result": {"content":[{"type":"text","text":"${long(5_000)}"}],"isError":true}}}`,
    // An answer nobody waits for, long: skipped by its head.
    `{"t_ms":40,"from":"server","message":{"id":99,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"${long(300_000)}"}],"isError":true}}}`,
  ];
  const files = writeRaw('chunked', lines);
  const { tools_called: called, shadow_decisions: _shadow, ...wire } = sessionSummary(files);
  assert.ok(wire.size_bytes > 1024 * 1024);
  assert.equal(wire, sessionDetail(files).summary);
  assert.equal(called, ['a', 'b', 'c', 'd']);
  assert.is(wire.tool_calls, 4);
  assert.is(wire.errors, 2);
  // A context line whose head looks whole but whose line goes on is read whole, and refused as the detail refuses it.
  const start = '{"t_ms":13,"from":"context","message":{"role":"user","content":"';
  const torn = `${start}${'y'.repeat(256 - start.length - 3)}"}} {}`;
  const refused = writeRaw('chunked-torn', [...lines.slice(0, 2), torn, ...lines.slice(3)]);
  assert.throws(() => sessionDetail(refused), /parsing .*line 4/);
  assert.throws(() => sessionSummary(refused), /parsing .*line 4/);
});

peek.run();
