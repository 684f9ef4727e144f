// server/data/stamps.ts: a stamp is size and mtime; it is reused while fresh (half a second), and for a log
// quiet for ten minutes for ten seconds; a missing file or no path stamps as '-'. Times are passed in, so
// the tests move the clock instead of waiting.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StampBook } from '../../server/data/stamps.ts';
import { tempDir } from '../support/fixtures.ts';

const stamps = suite('stamps');
let temp = tempDir();
stamps.before.each(() => {
  temp = tempDir();
});
stamps.after.each(() => temp.cleanup());

const stampOf = (path: string) => {
  const st = statSync(path);
  return `${st.size}:${st.mtimeMs}`;
};

stamps('a file stamps as its size and mtime; a missing file or no path as a dash', () => {
  const book = new StampBook();
  const path = join(temp.dir, 'a.jsonl');
  writeFileSync(path, 'abc');
  assert.is(book.stamp(path, Date.now()), stampOf(path));
  assert.is(book.stamp(join(temp.dir, 'gone.jsonl'), Date.now()), '-');
  assert.is(book.stamp(null), '-');
});

stamps('a stamp read less than half a second ago is reused; after that the file is read again', () => {
  const book = new StampBook();
  const path = join(temp.dir, 'a.jsonl');
  writeFileSync(path, 'abc');
  const now = Date.now();
  const first = book.stamp(path, now);
  writeFileSync(path, 'abcdef');
  assert.is(book.stamp(path, now + 499), first, 'still fresh');
  assert.is(book.stamp(path, now + 500), stampOf(path), 'read again');
});

stamps('a log quiet for ten minutes is read again only every ten seconds', () => {
  const book = new StampBook();
  const path = join(temp.dir, 'quiet.jsonl');
  writeFileSync(path, 'abc');
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(path, old, old);
  const now = Date.now();
  const first = book.stamp(path, now);
  writeFileSync(path, 'abcdef');
  assert.is(book.stamp(path, now + 9_999), first, 'quiet: not read again yet');
  assert.is(book.stamp(path, now + 10_000), stampOf(path), 'ten seconds on: read again');
});

stamps('forget and retain make the next stamp read the file', () => {
  const book = new StampBook();
  const a = join(temp.dir, 'a.jsonl');
  const b = join(temp.dir, 'b.jsonl');
  writeFileSync(a, 'a');
  writeFileSync(b, 'b');
  const now = Date.now();
  book.stamp(a, now);
  book.stamp(b, now);
  writeFileSync(a, 'aa');
  writeFileSync(b, 'bb');
  book.forget(a);
  assert.is(book.stamp(a, now + 1), stampOf(a), 'forgotten: read again');
  book.retain(new Set([a]));
  assert.is(book.stamp(b, now + 1), stampOf(b), 'not retained: read again');
});

stamps.run();
