// A saved index's paths are counted at load and split into strings only when their chunk is first asked for,
// giving what splitting the chunk's text at once gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countOf, SavedPaths } from '../../server/store/saved-paths.ts';

const test = suite('saved paths');

test('each chunk counts and splits as its joined text does, whatever the names hold', () => {
  const chunks = [['logs/shop/a.jsonl', 'logs/shop/b.jsonl'], ['ü ser/é.jsonl'], [''], ['x.jsonl', '', 'y.jsonl']];
  const bytes = chunks.map((names) => Buffer.from(names.join('\u0000')));
  const paths = new SavedPaths(bytes, bytes.map(countOf));
  assert.equal(paths.counts, [2, 1, 1, 3]);
  assert.is(paths.length, 4);
  chunks.forEach((names, c) => assert.equal(paths.at(c), names));
  // Asked again: the same strings, kept.
  assert.ok(paths.at(0) === paths.at(0));
  assert.is(paths.at(4), undefined);
  assert.is(paths.at(-1), undefined);
});

test('counts that do not match the chunks are refused', () => {
  assert.throws(() => new SavedPaths([Buffer.from('a')], []), /1 chunks of paths but 0 counts/);
});

test.run();
