// Long session-log lines: their long strings are cut for display without decoding the line whole, never
// inside a character, an escape or a surrogate pair; what is left past the bound is refused with the bound
// named; and the whole reader (log, flow log, confirmation log) gives a view of a 30 MB line.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_RESULT_CUT_BYTES, SESSION_VALUE_KEEP_BYTES } from '../../../shared/limits.ts';
import { sessionDetail, sessionSummary } from '../../../server/engine/sessions.ts';
import { cutMark, LineTooBig, lineText } from '../../../server/engine/session/shrink.ts';

const shrink = suite('long lines');

const text = (s: string, full: number, keep: number, rest = 1 << 20) => lineText(Buffer.from(s, 'utf8'), full, keep, rest);

shrink('a line at most `full` bytes long is read as it is', () => {
  const line = '{"a":"' + 'x'.repeat(50) + '"}';
  assert.equal(text(line, line.length, 4), { text: line, cut: 0 });
});

shrink('a longer line keeps `keep` bytes of each long string, and the mark gives its length', () => {
  const line = `{"short":"abc","long":"${'y'.repeat(100)}","n":[1,2]}`;
  const r = text(line, 10, 8);
  assert.is(r.cut, 1);
  assert.is(r.text, `{"short":"abc","long":"${'y'.repeat(8)}${cutMark(100)}","n":[1,2]}`);
  assert.equal(JSON.parse(r.text).n, [1, 2]);
});

shrink('keys are strings too, and an unclosed string is cut and stays unclosed', () => {
  const r = text(`{"${'k'.repeat(40)}":1,"v":"${'z'.repeat(40)}`, 10, 5);
  assert.is(r.cut, 2);
  assert.is(r.text, `{"kkkkk${cutMark(40)}":1,"v":"zzzzz${cutMark(40)}`);
  assert.throws(() => JSON.parse(r.text));
});

shrink('a cut never splits a character, an escape or a surrogate pair', () => {
  // "é" is 2 bytes: a keep of 3 takes one, and the next would not fit.
  assert.is(JSON.parse(text(`["${'é'.repeat(20)}"]`, 4, 3).text)[0], `é${cutMark(40)}`);
  // "\n" is an escape of 2 bytes: a keep of 3 takes "a\n", a keep of 2 takes "a" only.
  assert.is(JSON.parse(text(`["a\\n${'b'.repeat(20)}"]`, 4, 3).text)[0], `a\n${cutMark(23)}`);
  assert.is(JSON.parse(text(`["a\\n${'b'.repeat(20)}"]`, 4, 2).text)[0], `a${cutMark(23)}`);
  // \ud83d\ude00 is one character in two escapes: never the first alone.
  const pair = '\\ud83d\\ude00';
  assert.is(JSON.parse(text(`["${pair}${'c'.repeat(20)}"]`, 4, 6).text)[0], cutMark(32));
  assert.is(JSON.parse(text(`["${pair}${'c'.repeat(20)}"]`, 4, 12).text)[0], `😀${cutMark(32)}`);
  // An escaped quote does not end the string; an escaped backslash before a quote does.
  assert.is(JSON.parse(text(`["\\"${'d'.repeat(20)}","\\\\"]`, 4, 4).text)[0], `"dd${cutMark(22)}`);
  assert.is(JSON.parse(text(`["${'e'.repeat(20)}\\\\","f"]`, 4, 30).text)[1], 'f');
});

shrink('what is left past the bound is refused, saying which bound', () => {
  const line = `[${'1,'.repeat(100)}1]`;
  try {
    text(line, 10, 4, 100);
    assert.unreachable('no error');
  } catch (e) {
    assert.instance(e, LineTooBig);
    assert.match((e as Error).message, 'more than 0 MiB of it is not in strings longer than');
  }
});

const big = suite('a 30 MB line');
let dir = '';
big.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-big-'));
});
big.after(() => rmSync(dir, { recursive: true, force: true }));

big('a 30 MB tool result and user message give a view with both cut and counted', () => {
  const huge = 'é'.repeat(15 * 1024 * 1024);
  const stem = join(dir, 's');
  const lines = [
    { engine_mcp_log: 2, session: 's', started_unix_ms: 1, server_command: ['x'], domain: 'd', agent_model: null },
    { t_ms: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { p: 'a' } } } },
    { t_ms: 2, from: 'server', message: { id: 1, jsonrpc: '2.0', result: { content: [{ type: 'text', text: huge }], isError: false } } },
    { t_ms: 3, from: 'context', message: { role: 'user', content: huge } },
  ];
  writeFileSync(`${stem}.jsonl`, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(`${stem}.flow.jsonl`, JSON.stringify({ action: 'lookup', after: 1, address: 'a', site: 's', reason: huge, shadow: false }) + '\n');
  writeFileSync(`${stem}.confirm.jsonl`, JSON.stringify({ verdict: huge }) + '\n');
  const files = { key: 's', rel: 's.jsonl', path: `${stem}.jsonl`, flowLog: `${stem}.flow.jsonl`, confirmLog: `${stem}.confirm.jsonl` };
  const d = sessionDetail(files);
  const mark = cutMark(Buffer.byteLength(huge));
  const kept = 'é'.repeat(Math.floor(SESSION_VALUE_KEEP_BYTES / 2));
  assert.is(d.cut_for_display, 4);
  assert.is(d.context[0]!.content, kept + mark);
  assert.is(d.calls[0]!.result_text, kept + mark);
  assert.ok(Buffer.byteLength(d.calls[0]!.result_text!) < SESSION_RESULT_CUT_BYTES);
  assert.is(d.calls[0]!.result_truncated, true);
  assert.is(d.calls[0]!.result_json, null);
  assert.is(d.truncated, true);
  assert.is(d.decisions[0]!.reason, kept + mark);
  assert.equal(d.confirmations, [{ verdict: kept + mark }]);
  assert.is(sessionSummary(files).tool_calls, 1);
});

shrink.run();
big.run();
