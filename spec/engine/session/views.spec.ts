// The outline pass (engine/session/views.ts): taking plain answers without parsing them gives the very
// outline, places and events a full parse gives, on every fixture session and on a synthetic big log; the
// plain-answer shortcut counts a text's UTF-8 size from its escapes and refuses any other shape; payloads
// read back from their places are the detail's; find works on bytes without losing a match.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeBigLog } from '../../../scripts/synth/big.ts';
import { Rng } from '../../../scripts/synth/rng.ts';
import { plainAnswer, plainAnswerBytes, plainAnswerOfLine } from '../../../server/engine/session/plain-answer.ts';
import { callPayload, findInCalls, sessionIndex } from '../../../server/engine/session/views.ts';
import { sessionDetail } from '../../../server/engine/sessions.ts';
import { tempDir } from '../../support/fixtures.ts';
import { filesAt, fixtureSessions } from '../session-files.ts';

const views = suite('session views');

views('the quick outline pass equals the full one on every fixture session', () => {
  const all = fixtureSessions();
  assert.ok(all.length >= 10);
  for (const f of all) assert.equal(sessionIndex(f, true), sessionIndex(f, false), f.rel);
});

views('on a synthetic big log the quick pass equals the full one, and payloads and find read the log back', async () => {
  const tmp = tempDir();
  try {
    const big = await writeBigLog(tmp.dir, 3, 1793491200000, 77, new Rng(9));
    const name = readdirSync(tmp.dir).find((n) => n.endsWith('.jsonl'))!;
    const f = filesAt(tmp.dir, name);
    const quick = sessionIndex(f, true);
    assert.equal(quick, sessionIndex(f, false));
    assert.is(quick.outline.calls.length, big.calls);
    const detail = sessionDetail(f);
    for (const n of [0, 1, Math.floor(big.calls / 2), big.calls - 1]) {
      const p = callPayload({ path: f.path, n, id: detail.calls[n]!.id, tool: detail.calls[n]!.tool, place: quick.places[n]!, all: true });
      assert.equal(p.arguments, detail.calls[n]!.arguments);
      // The detail cuts answers at 64 KiB; the payload has them whole.
      assert.is(p.result!.text.startsWith(detail.calls[n]!.result_text!), true);
      assert.is(Buffer.byteLength(p.result!.text), quick.outline.calls[n]!.result_bytes);
    }
    // Find on bytes agrees with a plain search of every payload.
    for (const q of ['Page":3}', 'item 17,', 'STURDY everyday', 'nowhere-at-all']) {
      const expected = detail.calls.flatMap((c, n) => {
        const p = callPayload({ path: f.path, n, id: c.id, tool: c.tool, place: quick.places[n]!, all: true });
        const fields: ('arguments' | 'result')[] = [];
        if (JSON.stringify(p.arguments).toLowerCase().includes(q.toLowerCase())) fields.push('arguments');
        if (p.result!.text.toLowerCase().includes(q.toLowerCase())) fields.push('result');
        return fields.length ? [{ n, fields }] : [];
      });
      assert.equal(findInCalls(f.path, quick.places, q), expected, q);
    }
  } finally {
    tmp.cleanup();
  }
});

const line = (message: unknown) => JSON.stringify({ t_ms: 1, from: 'server', message });
const at = (l: string) => l.indexOf('"result":') + '"result":'.length;

views('a plain answer\'s size is counted from its escapes, and its head is its start', () => {
  const texts = ['', 'plain', 'a "quoted" \\ back\nslash\ttab / é ✓ 😀 \u0001', '\ud800 lone', `${'x'.repeat(5000)}😀`];
  for (const text of texts) {
    for (const l of [
      line({ id: 3, jsonrpc: '2.0', result: { content: [{ text, type: 'text' }], isError: false } }),
      line({ id: 'a', jsonrpc: '2.0', result: { content: [{ type: 'text', text }], isError: false } }),
    ]) {
      const r = plainAnswer(l, at(l));
      assert.ok(r, l.slice(0, 80));
      assert.is(r!.bytes, Buffer.byteLength(text));
      // The bytes' way (lines too long to read whole) counts the same and starts the same.
      const b = plainAnswerBytes(Buffer.from(l), Buffer.byteLength(l.slice(0, at(l))));
      assert.is(b!.bytes, r!.bytes);
      assert.is(text.startsWith(b!.head), true);
      assert.ok(b!.head.length >= Math.min(text.length, 2000));
      assert.is(text.startsWith(r!.head), true);
      assert.is(r!.head.length, Math.min(text.length, r!.head.length));
      assert.ok(r!.head.length >= Math.min(text.length, 2000));
    }
  }
  // \u escapes (a writer that escapes non-ASCII) count as the characters they stand for.
  const escaped = '{"t_ms":1,"from":"server","message":{"id":3,"jsonrpc":"2.0","result":{"content":[{"text":"\\u00e9\\u2713\\ud83d\\ude00\\u0041","type":"text"}],"isError":false}}}';
  assert.equal(plainAnswer(escaped, at(escaped)), { head: 'é✓😀A', bytes: 2 + 3 + 4 + 1 });
});

views('from the bytes of a line of a big log, the answer is the very one plainAnswer gives for its text', () => {
  // Texts of every kind of character and escape, around the lengths where the head is cut.
  const rng = new Rng(21);
  const pieces = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\u0001', 'é', '✓', '😀', '\ud800', '\udc00', '€uro', '\\u00e9'];
  const raw = ['\\u00e9', '\\ud83d\\ude00', '\\u12', '\\q', '\\'];
  const lengths = [0, 1, 100, 2399, 2400, 2401, 7203, 7204, 7205, 9000];
  for (let n = 0; n < 300; n++) {
    const want = lengths[n % lengths.length]! + rng.int(0, 3);
    let text = '';
    // Every fifth text is one wide character over and over: the most bytes a code unit can take.
    const only = n % 5 === 4 ? ['✓', '😀', 'é'][n % 3] : undefined;
    while (text.length < want) text += only ?? pieces[rng.int(0, pieces.length - 1)];
    for (const first of ['text', 'type'] as const) {
      const content = first === 'text' ? { text, type: 'text' } : { type: 'text', text };
      let l = line({ id: n, jsonrpc: '2.0', result: { content: [content], isError: false } });
      // Now and then an escape as a writer other than JSON.stringify spells it, or a malformed one.
      if (n % 7 === 0) l = l.replace('"text":"', `"text":"${raw[n % raw.length]}`);
      const byteAt = Buffer.byteLength(l.slice(0, at(l)));
      assert.equal(plainAnswerOfLine(Buffer.from(l), byteAt), plainAnswer(l, at(l)), `${n} ${first} ${l.slice(0, 120)}`);
    }
  }
});

views('any other shape is left to the parser', () => {
  const others = [
    line({ id: 3, jsonrpc: '2.0', result: { content: [{ text: 'a', type: 'text' }, { text: 'b', type: 'text' }], isError: false } }),
    line({ id: 3, jsonrpc: '2.0', result: { content: [{ text: 'a', type: 'text' }], isError: true } }),
    line({ id: 3, jsonrpc: '2.0', result: { content: [{ text: 'a', type: 'text' }], isError: false, structuredContent: {} } }),
    line({ id: 3, jsonrpc: '2.0', result: { content: [{ text: 'a', type: 'image' }], isError: false } }),
    line({ id: 3, jsonrpc: '2.0', result: { content: [{ text: 'a","type":"text"},{"text":"b', type: 'text' }], isError: false } }).replace('a\\",\\"type', 'a","type'),
  ];
  for (const l of others) {
    assert.is(plainAnswer(l, at(l)), null, l);
    assert.is(plainAnswerBytes(Buffer.from(l), at(l)), null, l);
    assert.is(plainAnswerOfLine(Buffer.from(l), at(l)), null, l);
  }
});

views.run();
