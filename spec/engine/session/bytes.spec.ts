// The single-session view as chunked UTF-8 bytes: the chunk builder, the field-at-a-time JSON writer, and
// the view's bytes against JSON.stringify of the view for every fixture session.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { BYTE_CHUNK, ByteBuilder, writeJsonConsuming } from '../../../server/engine/session/bytes.ts';
import { sessionDetail, sessionDetailBytes } from '../../../server/engine/sessions.ts';
import { sessionDetailFileTask } from '../../../server/workers/tasks/sessions.ts';
import { fixtureSessions } from '../session-files.ts';

const bytes = suite('session-bytes');

const joined = (chunks: Uint8Array[]) => Buffer.concat(chunks);

bytes('the builder encodes text as UTF-8 across chunk seams, never splitting a character', () => {
  const pieces = ['{"a":', 'é', '😀😀', 'x'.repeat(37), '"\u2028"', '中文字', '😀', '', 'end'];
  for (const size of [8, 9, 10, 11, 13, 64]) {
    const out = new ByteBuilder(size);
    for (const p of pieces) out.text(p);
    const chunks = out.finish();
    const whole = Buffer.from(pieces.join(''), 'utf8');
    assert.ok(joined(chunks).equals(whole), `chunk size ${size}`);
    for (const c of chunks) {
      assert.ok(c.byteLength > 0, `chunk size ${size}: a chunk of ${c.byteLength} bytes`);
      assert.ok(c.byteLength <= size, `chunk size ${size}: a chunk of ${c.byteLength} bytes`);
      // Every chunk decodes on its own: no character is split between two.
      assert.ok(Buffer.from(c).toString('utf8').indexOf('\ufffd') === -1, `chunk size ${size}: a split character`);
    }
  }
});

bytes('the builder gives no chunk at all for no text, and counts what it wrote', () => {
  const empty = new ByteBuilder(16);
  assert.equal(empty.finish(), []);
  const out = new ByteBuilder(16);
  out.text('ab😀');
  assert.is(out.size, 6);
});

bytes('each chunk owns its own buffer, so chunks can be moved one by one', () => {
  const out = new ByteBuilder(16);
  out.text('y'.repeat(100));
  const chunks = out.finish();
  assert.is(new Set(chunks.map((c) => c.buffer)).size, chunks.length);
  for (const c of chunks) assert.is(c.byteOffset, 0);
});

bytes('the JSON writer writes what JSON.stringify writes and lets go of each element written', () => {
  const value: Record<string, unknown> = {
    a: 1,
    skipped: undefined,
    list: [{ x: 'é', y: undefined }, undefined, null, [1, 'two'], 'three'],
    empty: [],
    nested: { k: ['v'], n: null },
    text: 'line\nbreak "quoted" 😀',
    last: false,
  };
  const expected = JSON.stringify(value);
  const out = new ByteBuilder(8);
  writeJsonConsuming(out, value);
  assert.is(joined(out.finish()).toString('utf8'), expected);
  assert.equal(value.list, [null, null, null, null, null]);
});

bytes('the view as bytes equals JSON.stringify of the view, for every fixture session', () => {
  const sessions = fixtureSessions();
  assert.ok(sessions.length > 0);
  for (const files of sessions) {
    const chunks = sessionDetailBytes(files);
    assert.equal(chunks.map((c) => c.byteLength).filter((n) => n === 0 || n > BYTE_CHUNK), [], `${files.key}: chunk sizes`);
    assert.is(joined(chunks).toString('utf8'), JSON.stringify(sessionDetail(files)), files.key);
  }
});

bytes('the file task writes the view to the spool, or answers why the file cannot be read', () => {
  const good = fixtureSessions()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'engine-bytes-'));
  try {
    const out = join(dir, '1.json');
    const r = sessionDetailFileTask({ files: good, out });
    assert.ok(r.ok);
    const text = readFileSync(out, 'utf8');
    if (r.ok) assert.is(r.value, Buffer.byteLength(text));
    assert.is(text, JSON.stringify(sessionDetail(good)));
    const missing = sessionDetailFileTask({ files: { ...good, path: join('/nonexistent', 'gone.jsonl') }, out: join(dir, '2.json') });
    assert.ok(!missing.ok);
    if (!missing.ok) assert.match(missing.message, /^reading /);
    assert.not.ok(existsSync(join(dir, '2.json')), 'no file is left for a log that cannot be read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

bytes.run();
