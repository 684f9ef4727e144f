// The session-log reader on logs written here: files that are not session logs (never a crash, never a
// hang, a message that says why), the reader's tolerance rules, the 64 KiB cut, the turn rule, commits,
// cancels, and the summary's shortcuts agreeing with the full pass.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SessionFiles, publicSummary, sessionDetail, sessionSummary } from '../../server/engine/sessions.ts';
import { tempDir } from '../support/fixtures.ts';
import { SESSION_VALUE_KEEP_BYTES } from '../../shared/limits.ts';
import { cutMark } from '../../server/engine/session/shrink.ts';
import { endsWith, startsWith } from '../support/assert.ts';

const HEADER = {
  engine_mcp_log: 2,
  session: '20260101T000000.000Z-1',
  started_unix_ms: 1767225600000,
  server_command: ['demo-server', '--token', '<redacted>'],
  domain: 'shop',
  agent_model: null,
};

type Line = string | Record<string, unknown>;
const entry = (t: number, from: string, message: unknown): Line => ({ t_ms: t, from, message });
const request = (t: number, id: unknown, method: string, params?: unknown): Line =>
  entry(t, 'client', params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
const call = (t: number, id: unknown, name: string, args: unknown, from = 'client'): Line =>
  entry(t, from, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const answer = (t: number, id: unknown, text: string, isError = false, from = 'server'): Line =>
  entry(t, from, { id, jsonrpc: '2.0', result: { content: [{ type: 'text', text }], isError } });
const said = (t: number, role: string, content: string): Line => entry(t, 'context', { role, content });
const listing = (t: number, id: unknown, tools: { name: string; readOnly?: boolean }[]): Line =>
  entry(t, 'server', {
    id,
    jsonrpc: '2.0',
    result: {
      tools: tools.map((x) => ({
        name: x.name,
        annotations: x.readOnly === undefined ? {} : { readOnlyHint: x.readOnly },
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      })),
    },
  });

let temp: { dir: string; cleanup: () => void };
let n = 0;

/** Writes a log (and optionally its flow log) and returns its files. `text` overrides the lines. */
function log(lines: Line[], opts: { end?: string; flow?: Line[]; text?: string | Buffer } = {}): SessionFiles {
  const name = `s${++n}`;
  const path = join(temp.dir, `${name}.jsonl`);
  const body = opts.text ?? [HEADER, ...lines].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + (opts.end ?? '\n');
  writeFileSync(path, body);
  let flowLog: string | null = null;
  if (opts.flow) {
    flowLog = join(temp.dir, `${name}.flow.jsonl`);
    writeFileSync(flowLog, opts.flow.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  }
  return { key: name, rel: `logs/${name}.jsonl`, path, flowLog, confirmLog: null };
}

/** Both entry points refuse the file, with a message matching `why`. */
function refused(files: SessionFiles, why: RegExp): void {
  for (const read of [sessionSummary, sessionDetail]) {
    try {
      read(files);
    } catch (e) {
      assert.match((e as Error).message, why);
      continue;
    }
    assert.unreachable(`${read.name} read ${files.rel}`);
  }
}

/** The detail, after checking that the summary's shortcuts agree with it. */
function detail(files: SessionFiles) {
  const d = sessionDetail(files);
  assert.equal(publicSummary(sessionSummary(files)), d.summary);
  return d;
}

const unreadable = suite('sessions: files that are not session logs');
unreadable.before(() => {
  temp = tempDir('engine-sessions-');
});
unreadable.after(() => temp.cleanup());

unreadable('an empty file, or one of blank lines, has no header line', () => {
  refused(log([], { text: '' }), /empty log: no header line/);
  refused(log([], { text: '\n  \n\t\r\n' }), /empty log: no header line/);
});

unreadable('a binary file that is not UTF-8 is refused while reading', () => {
  const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x81, 0x0a, 0xc3, 0x28]);
  refused(log([], { text: bytes }), /^reading .*s\d+\.jsonl: .*UTF-8/);
});

unreadable('a binary file that is valid UTF-8 is not a header', () => {
  refused(log([], { text: '\u0000\u0001\u0002PNG\n\u0000' }), /^parsing .*: line 1: not an engine MCP log header/);
});

unreadable('JSON that is not a session log names what is missing', () => {
  refused(log([], { text: '{"engine_flow":1,"tools":[]}\n' }), /line 1: not an engine MCP log header: missing field "engine_mcp_log"/);
  refused(log([], { text: '[1,2,3]\n' }), /line 1: not an engine MCP log header: expected a JSON object/);
  refused(log([], { text: '{"engine_mcp_log":2,"started_unix_ms":1}\n' }), /missing field "session"/);
  refused(log([], { text: '{"engine_mcp_log":2,"session":"s","started_unix_ms":1,"server_command":null}\n' }), /server_command/);
});

unreadable('a header of another version is refused with the versions this build reads', () => {
  refused(log([], { text: JSON.stringify({ ...HEADER, engine_mcp_log: 3 }) + '\n' }), /unsupported log version 3 \(this build reads versions 1 to 2\)/);
  refused(log([], { text: JSON.stringify({ ...HEADER, engine_mcp_log: 2.5 }) + '\n' }), /engine_mcp_log/);
});

unreadable('a header is checked field by field unless it has the writer\'s shape exactly', () => {
  const plain = '{"engine_mcp_log":2,"session":"s","started_unix_ms":1,"server_command":["srv"],"domain":"d","agent_model":null}';
  assert.is(sessionSummary(log([], { text: `${plain}\n` })).domain, 'd');
  refused(log([], { text: plain.replace('"domain":"d"', '"domain":"d","session":"t"') + '\n' }), /line 1: not an engine MCP log header: duplicate field "session"/);
  refused(log([], { text: plain.replace('"session":"s"', '"session":"\\ud800"') + '\n' }), /line 1: not an engine MCP log header: a lone surrogate/);
  refused(log([], { text: plain.replace('"started_unix_ms":1', '"started_unix_ms":1e3') + '\n' }), /started_unix_ms: expected a whole number from 0 to \d+, got 1e3/);
  refused(log([], { text: plain.replace('"started_unix_ms":1', '"started_unix_ms":99999999999999999999') + '\n' }), /started_unix_ms: expected a whole number/);
  // Escapes and another order are read, the long way.
  const escaped = sessionSummary(log([], { text: plain.replace('"domain":"d"', '"domain":"\\u0064"').replace('{"engine_mcp_log":2,', '{"engine_mcp_log":2 ,') + '\n' }));
  assert.is(escaped.domain, 'd');
});

unreadable('a BOM before the header makes it fail, as in the CLI', () => {
  refused(log([], { text: '\ufeff' + JSON.stringify(HEADER) + '\n' }), /line 1: not an engine MCP log header/);
});

unreadable('a bad line in the middle makes the whole log unreadable, with its line number', () => {
  refused(log([call(1, 1, 'q', {}), '{"t_ms":2,"from":"server","mess', answer(3, 1, 'x')]), /line 3: /);
});

unreadable('a bad last line is an error when the file ends with a newline', () => {
  refused(log([call(1, 1, 'q', {}), '{"t_ms":2,"from":"serv']), /line 3: /);
});

unreadable('entries are checked as the CLI checks them', () => {
  refused(log(['{"t_ms":5.0,"from":"client","message":{}}']), /line 2: t_ms: expected a whole number of ms, got 5\.0/);
  refused(log(['{"t_ms":-1,"from":"client"}']), /line 2: t_ms/);
  refused(log(['{"from":"client","message":{}}']), /line 2: missing field "t_ms"/);
  refused(log(['{"t_ms":1,"from":"agent","message":{}}']), /line 2: from: unknown sender "agent"/);
  refused(log(['{"message":{},"t_ms":1,"from":"client","t_ms":2}']), /line 2: duplicate field "t_ms"/);
  refused(log(['{"t_ms":1,"from":"client","raw":7}']), /line 2: raw/);
  refused(log(['{"t_ms":1,"from":"client","message":{"text":"\\ud83d"}}']), /line 2: a lone surrogate/);
  refused(log(['"just a string"']), /line 2: expected a JSON object/);
});

unreadable('a huge single line that is not JSON is refused without a crash', () => {
  // Past 1 MiB a line is read with its long strings cut; with no strings at all, it is past that bound.
  refused(log([], { text: 'x'.repeat(24 * 1024 * 1024) }), /line 1: the line is 24 MiB and more than 4 MiB of it is not in strings/);
});

unreadable('a line longer than 64 MiB makes the log unreadable instead of exhausting memory', () => {
  const long = `{"t_ms":1,"from":"server","raw":"${'y'.repeat(65 * 1024 * 1024)}"}`;
  refused(log([call(0, 1, 'q', {}), long]), /^reading .*: line 3 is longer than 64 MiB/);
});

unreadable.run();

const reading = suite('sessions: reading logs');
reading.before(() => {
  temp = tempDir('engine-sessions-');
});
reading.after(() => temp.cleanup());

reading('a half-written last line of a file without a final newline is dropped', () => {
  const d = detail(log([call(1, 1, 'q', {}), answer(2, 1, 'ok'), '{"t_ms":3,"from":"client","message":{"jso'], { end: '' }));
  assert.is(d.events.length, 2);
  assert.is(d.summary.duration_ms, 2);
  assert.is(d.calls[0]!.result_text, 'ok');
  assert.is(d.truncated, false);
});

reading('blank lines are skipped, a trailing \\r is removed, raw lines and batches become events', () => {
  const d = detail(
    log([
      '',
      `${JSON.stringify(call(1, 1, 'q', { a: 1 }))}\r`,
      '   ',
      { t_ms: 2, from: 'server', raw: 'listening on stdio' },
      entry(3, 'client', [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 9, result: {} }]),
      entry(4, 'client', []),
      { t_ms: 5, from: 'server' },
    ]),
  );
  assert.equal(
    d.events.map((e) => [e.t_ms, e.from, e.kind, e.method, e.id, e.summary]),
    [
      [1, 'client', 'request', 'tools/call', '1', 'q {"a":1}'],
      [2, 'server', 'raw', null, null, 'listening on stdio'],
      [3, 'client', 'notification', 'notifications/initialized', null, 'notifications/initialized'],
      [3, 'client', 'response', null, '9', '{}'],
    ],
  );
  assert.is(d.summary.duration_ms, 5);
});

reading('a result longer than 64 KiB is cut on a character boundary and not parsed as JSON', () => {
  const big = JSON.stringify({ text: '€'.repeat(30000) }); // 90 000 bytes of UTF-8
  const d = detail(log([call(1, 1, 'q', {}), answer(2, 1, big), call(3, 2, 'q', {}), answer(4, 2, '{"small":true}')]));
  const [cut, whole] = d.calls;
  assert.ok(cut!.result_truncated);
  assert.is(cut!.result_json, null);
  assert.ok(Buffer.byteLength(cut!.result_text!, 'utf8') <= 65536);
  assert.ok(Buffer.byteLength(cut!.result_text!, 'utf8') > 65536 - 3);
  startsWith(big, cut!.result_text!);
  assert.is(d.truncated, true);
  assert.equal([whole!.result_truncated, whole!.result_json], [false, { small: true }]);
});

reading('a 40 MB log gives its detail with results cut, and its summary agrees', () => {
  const payload = 'row '.repeat(500_000); // 2 MB per answer
  const lines: Line[] = [];
  for (let i = 0; i < 20; i++) lines.push(call(i * 1000, i, 'q', { i }), answer(i * 1000 + 1, i, payload));
  const d = detail(log(lines));
  assert.is(d.calls.length, 20);
  // Lines past 1 MiB have their long strings cut for display first, with a mark that gives their length.
  const shown = payload.slice(0, SESSION_VALUE_KEEP_BYTES) + cutMark(payload.length);
  assert.equal(new Set(d.calls.map((c) => [c.result_truncated, c.result_text].join())), new Set([`true,${shown}`]));
  assert.is(d.cut_for_display, 20);
  assert.is.not(d.events.length, 0);
  assert.equal(d.events.map((e) => [...e.summary].length).filter((n) => n > 201), []);
});

reading('an answer that is an error counts as one, through the summary’s shortcut too', () => {
  const long = 'x'.repeat(5000);
  const d = detail(
    log([
      call(1, 1, 'q', {}), answer(2, 1, long, true),
      call(700, 2, 'q', {}), entry(701, 'server', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } }),
      call(1400, 3, 'q', {}), entry(1401, 'server', { jsonrpc: '2.0', id: 3, error: { code: null, message: 'worse' } }),
      call(2100, 4, 'q', {}), answer(2101, 4, long),
    ]),
  );
  assert.equal(d.calls.map((c) => c.ok), [false, false, false, true]);
  assert.is(d.summary.errors, 3);
  assert.equal(d.events.filter((e) => e.from === 'server').map((e) => [e.kind, e.summary.slice(0, 16)]), [
    ['error', 'x'.repeat(16)], ['error', 'error -32602: bad'.slice(0, 16)], ['error', 'error null: wors'], ['response', 'x'.repeat(16)],
  ]);
});

reading('calls sent within 500 ms of the last answer share its turn unless they use a value it returned', () => {
  const d = detail(
    log([
      call(0, 1, 'find', { email: 'a@b.c' }), answer(10, 1, 'user_7'),
      call(100, 2, 'other', { x: 'unrelated' }), answer(110, 2, 'fine'),
      call(200, 3, 'details', { user: 'user_7' }), answer(210, 3, 'ok'),
      call(1000, 4, 'late', {}), answer(1010, 4, 'ok'),
      said(1020, 'user', 'and then?'),
      call(1100, 5, 'after-words', {}), answer(1110, 5, 'ok'),
      said(1200, 'assistant', ''),
      said(1300, 'assistant', 'done'),
    ]),
  );
  assert.equal(d.turns.map((t) => t.calls), [['1', '2'], ['3'], ['4'], ['5'], []]);
  assert.equal(d.turns.map((t) => [t.start_ms, t.end_ms]), [[0, 110], [200, 210], [1000, 1010], [1100, 1110], [1300, 1300]]);
  assert.is(d.summary.llm_turns, 5);
});

reading('long answers the summary does not parse still end their turns in the same place', () => {
  const long = (s: string) => `${s} ${'pad '.repeat(600)}`;
  const d = detail(
    log([
      call(0, 1, 'find', { email: 'a@b.c' }), answer(10, 1, long('user_7')),
      call(100, 2, 'details', { user: 'user_7' }), answer(110, 2, long('order_9')),
      call(200, 3, 'again', { user: 'user_7' }), answer(210, 3, long('x')),
    ]),
  );
  assert.equal(d.turns.map((t) => t.calls), [['1'], ['2', '3']]);
});

reading('a value new from the turn’s results is found across two answers, and in answers read again', () => {
  const seam = (value: string) =>
    detail(
      log([
        call(0, 1, 'a', {}), call(1, 2, 'b', {}),
        answer(10, 1, 'xxab'), answer(11, 2, 'cdyy'),
        call(100, 3, 'c', { v: value }), answer(110, 3, 'ok'),
      ]),
    ).turns.map((t) => t.calls);
  assert.equal(seam('abcd'), [['1', '2'], ['3']]);
  assert.equal(seam('zzzz'), [['1', '2', '3']]);
  // Answers over 64 KiB are not kept for the check: it reads them again from the file.
  const big = (s: string) => `${'filler '.repeat(12000)}${s}`;
  const d = detail(
    log([
      said(0, 'user', 'I am user_1'),
      call(1, 1, 'find', {}), answer(10, 1, big('user_1 order_5')),
      call(100, 2, 'same', { user: 'user_1' }), answer(110, 2, big('more')),
      call(200, 3, 'new', { order: 'order_5' }), answer(210, 3, 'ok'),
    ]),
  );
  assert.equal(d.turns.map((t) => t.calls), [['1', '2'], ['3']]);
});

reading('a cancelled call no longer holds its turn open', () => {
  const d = detail(
    log([
      call(0, 1, 'slow', {}),
      entry(50, 'client', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
      call(2000, 2, 'next', {}), answer(2010, 2, 'ok'),
    ]),
  );
  assert.equal(d.turns.map((t) => t.calls), [['1'], ['2']]);
  assert.equal([d.calls[0]!.ok, d.calls[0]!.result_t_ms], [null, null]);
});

reading('a commit tool call is the agent’s, and the calls made for it follow it without counting', () => {
  const d = detail(
    log([
      request(0, 1, 'tools/list'),
      listing(1, 1, [{ name: 'write_it', readOnly: false }, { name: 'read_it', readOnly: true }]),
      entry(2, 'proxy', { id: 1, jsonrpc: '2.0', result: { tools: [{ name: 'engine_commit' }] } }),
      call(10, 5, 'engine_commit', { calls: [{ name: 'write_it', arguments: {} }] }),
      call(11, 'engine-1', 'write_it', {}, 'proxy'),
      answer(12, 'engine-1', 'written'),
      answer(13, 5, 'write_it {}:\nwritten', false, 'proxy'),
      call(20, 6, 'read_it', {}), answer(21, 6, 'r'),
      call(22, 'engine-2', 'read_it', {}, 'proxy'), answer(23, 'engine-2', 'r'),
    ]),
  );
  assert.equal(d.calls.map((c) => [c.id, c.by, c.kind, c.after, c.turn]), [
    ['5', 'agent', 'generic', null, 0],
    ['engine-1', 'agent', 'write', '5', null],
    ['6', 'agent', 'read', null, 0],
    ['engine-2', 'flow', 'read', '6', null],
  ]);
  assert.equal([d.summary.tool_calls, d.summary.writes, d.summary.flow_lookups, d.summary.mode], [2, 0, 1, 'served']);
  assert.equal(d.tools.map((t) => t.name), ['read_it', 'write_it']);
  assert.is(d.calls[0]!.result_text, 'write_it {}:\nwritten');
});

reading('a refusal by the proxy is the call’s result; a later server answer does not replace it', () => {
  const refusal = 'Refused by the policy check, so q was not run and nothing changed: no.';
  const d = detail(log([call(0, 1, 'q', {}), answer(1, 1, refusal, true, 'proxy'), answer(2, 1, 'late')]));
  assert.equal([d.calls[0]!.ok, d.calls[0]!.result_text, d.summary.errors, d.summary.mode], [false, refusal, 1, 'served']);
});

reading('the agent is the header’s model, else the client’s name; an http upstream is a URL', () => {
  const named = detail(
    log([request(0, 1, 'initialize', { clientInfo: { name: 'claude-code' } })], {
      text: `${JSON.stringify({ ...HEADER, server_command: ['https://h/mcp'], domain: '', agent_model: 'model-x' })}\n${JSON.stringify(request(0, 1, 'initialize', { clientInfo: { name: 'claude-code' } }))}\n`,
    }),
  );
  assert.equal([named.summary.agent, named.summary.domain, named.summary.upstream], ['model-x', null, { kind: 'http', url: 'https://h/mcp' }]);
  const fromClient = detail(log([request(0, 1, 'initialize', { clientInfo: { name: 'claude-code' } })]));
  assert.equal([fromClient.summary.agent, fromClient.summary.upstream], ['claude-code', { kind: 'stdio', command: HEADER.server_command }]);
  const none = detail(log([], { text: `${JSON.stringify({ ...HEADER, server_command: [] })}\n` }));
  assert.equal([none.summary.agent, none.summary.upstream, none.summary.llm_turns, none.events], [null, null, 0, []]);
});

reading('the mode comes from the flow log and the proxy, never from the directory', () => {
  const decision = (shadow: boolean, action = 'lookup', reason?: string): Line => ({
    action, address: 'decide#0', after: 1, ms: 0, probs: { q: 0.9 }, reason, shadow: shadow || undefined, site: 'q',
  });
  const lines = [call(0, 1, 'q', {}), answer(1, 1, 'ok')];
  assert.is(detail(log(lines, { flow: [] })).summary.mode, 'recorded');
  assert.is(detail(log(lines, { flow: [decision(true)] })).summary.mode, 'shadow');
  assert.is(detail(log(lines, { flow: [decision(true), decision(false, 'hand_back')] })).summary.mode, 'served');
  const surprised = detail(log(lines, { flow: [decision(true, 'hand_back', 'the session surprised the flow: 5 steps')] }));
  assert.equal([surprised.summary.surprised, surprised.summary.hand_backs, surprised.summary.mode], [true, 0, 'shadow']);
});

reading('the flow log is read leniently: bad lines skipped, fields mapped with their defaults', () => {
  const d = detail(
    log([call(0, 1, 'q', {}), answer(1, 1, 'ok')], {
      flow: [
        'not json',
        { action: 'lookup', after: 'x', ms: -3.7, prob: 'high', probs: { b: 0.5, a: 1, c: 'no' }, arguments: null },
        { action: 'hand_back', after: null, ms: 2.9 },
        { action: 'other' },
        { after: 1, run: null },
        { after: 1, run: { call: 'q', failed: true, max_lookups: -1, sites: [['decide#0'], [1, 2], ['outcome#0', true, -0.5]], surprise: 1.5 } },
        '{"action":"lookup","half',
      ],
    }),
  );
  assert.equal(d.decisions.map((x) => [x.after, x.address, x.site, x.tool, x.arguments, x.prob, x.probs, x.ms]), [
    ['x', '', '', null, null, null, { a: 1, b: 0.5 }, 0],
    ['null', '', '', null, null, null, {}, 2],
  ]);
  assert.equal(Object.keys(d.decisions[0]!.probs), ['a', 'b']);
  assert.equal(d.runs, [
    { after: '1', call: '', failed: false, max_lookups: 0, sites: [], surprise: null },
    { after: '1', call: 'q', failed: true, max_lookups: 0, sites: [['decide#0', null, 0], ['outcome#0', true, -0.5]], surprise: 1.5 },
  ]);
});

reading('the flow log is read up to its first line that is not UTF-8', () => {
  const files = log([call(0, 1, 'q', {}), answer(1, 1, 'ok')], {
    flow: [{ action: 'hand_back', after: 1, site: 'q' }, { action: 'hand_back', after: 2, site: 'q' }],
  });
  const lines = readFileSync(files.flowLog!);
  const second = lines.indexOf(0x0a) + 1;
  writeFileSync(files.flowLog!, Buffer.concat([lines.subarray(0, second), Buffer.from([0xff, 0x0a]), lines.subarray(second)]));
  const d = detail(files);
  assert.equal(d.decisions.map((x) => x.after), ['1']);
  assert.is(d.summary.hand_backs, 1);
});

reading('short forms sort keys, cut at 200 code points and trim requests', () => {
  const astral = '😀'.repeat(300);
  const d = detail(
    log([
      request(0, 1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } }),
      request(1, 2, 'tools/list'),
      request(2, 3, 'tools/list', {}),
      call(3, 4, 'q', { text: astral }),
      entry(4, 'context', { role: 7, content: 'hm' }),
      entry(5, 'client', 'a string message'),
    ]),
  );
  const s = d.events.map((e) => e.summary);
  assert.is(s[0], 'initialize {"capabilities":{},"clientInfo":{"name":"c","version":"1"},"protocolVersion":"2025-06-18"}');
  assert.is(s[1], 'tools/list');
  assert.is(s[2], 'tools/list {}');
  assert.is([...s[3]!].length, 201);
  endsWith(s[3]!, '😀…');
  assert.is(s[4], '?: hm');
  assert.equal([d.events[5]!.kind, s[5]], ['raw', '"a string message"']);
  assert.equal(d.context, []);
});

reading.run();
