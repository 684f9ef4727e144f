// The session reader's JSON text (sorted keys, session-format §6.9) and its companion-file lines, on the
// inputs where their fast paths could differ from the general ones.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { byCodePoint, jsonText } from '../../../server/engine/session/json.ts';
import { jsonLines } from '../../../server/engine/session/companions.ts';
import { tempDir } from '../../support/fixtures.ts';
import { startsWith } from '../../support/assert.ts';

const json = suite('session-json');
let temp: { dir: string; cleanup: () => void };
json.before(() => {
  temp = tempDir();
});
json.after(() => temp.cleanup());

/** The sorted-key text written the slow, obvious way (an object would put integer-like keys first). */
const written = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(written).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort(byCodePoint).map((k) => `${JSON.stringify(k)}:${written(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
};
const sorted = (text: string) => written(JSON.parse(text));

json('the JSON text sorts keys by code point whether or not they come sorted', () => {
  const texts = [
    '{"a":1,"b":[1,2,{"c":true,"d":null}],"e":"é"}',
    '{"b":1,"a":2}',
    '{"a":{"z":1,"y":2}}',
    '[{"b":1,"a":2},{"a":1}]',
    '{"9":1,"10":2,"b":3}',
    '{"\\ue000":1,"\\ud83d\\ude00":2}',
    '{"__proto__":{"x":1},"a":0}',
    '{"n":-0,"big":1e400,"f":1.50}',
    '"plain"',
    '[]',
    '{}',
  ];
  for (const text of texts) assert.is(jsonText(JSON.parse(text)), sorted(text), text);
});

json('a key order that only looks sorted to UTF-16 is still put in code-point order', () => {
  // U+E000 sorts below U+1F600 by code point, above it by UTF-16 unit.
  const value = JSON.parse('{"\\ud83d\\ude00":1,"\\ue000":2}') as Record<string, number>;
  assert.is(jsonText(value), '{"\\ue000":2,"😀":1}'.replace('\\ue000', '\ue000'));
});

json('a budget still stops a huge value early', () => {
  const value = { list: Array.from({ length: 1000 }, (_, i) => ({ i })) };
  const text = jsonText(value, 100);
  assert.ok(text.length > 100, `${text.length} characters`);
  assert.ok(text.length < 200, `${text.length} characters`);
  startsWith(JSON.stringify(value), text);
});

json('companion lines are read the same from a small file: CRLF, blank lines, no final newline', () => {
  const path = join(temp.dir, 'a.flow.jsonl');
  writeFileSync(path, '{"a":1}\r\n\n  \n{"b":2}\r\nnot json\n{"c":"é"}');
  assert.equal(jsonLines(path), [{ a: 1 }, { b: 2 }, { c: 'é' }]);
});

json('companion lines stop at the first line that is not UTF-8', () => {
  const path = join(temp.dir, 'b.flow.jsonl');
  writeFileSync(path, Buffer.concat([Buffer.from('{"a":1}\n{"b":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n{"c":3}\n')]));
  assert.equal(jsonLines(path), [{ a: 1 }]);
});

json('a missing or empty companion file has no lines', () => {
  const empty = join(temp.dir, 'c.flow.jsonl');
  writeFileSync(empty, '');
  assert.equal(jsonLines(empty), []);
  assert.equal(jsonLines(join(temp.dir, 'gone.flow.jsonl')), []);
});

json.run();
