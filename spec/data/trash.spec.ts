import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../server/data/atomic.ts';
import { moveToTrash, TrashError } from '../../server/data/trash.ts';
import { tempDir } from '../support/fixtures.ts';

const trash = suite('trash and atomic writes');

trash('files move to console/trash/<time>/ at their relative paths, nothing unlinked', async () => {
  const t = tempDir();
  try {
    mkdirSync(join(t.dir, 'logs/shop'), { recursive: true });
    writeFileSync(join(t.dir, 'logs/shop/a.jsonl'), 'A');
    writeFileSync(join(t.dir, 'logs/shop/a.flow.jsonl'), 'F');
    await moveToTrash(t.dir, ['logs/shop/a.jsonl', 'logs/shop/a.flow.jsonl'], 1234);
    assert.not.ok(existsSync(join(t.dir, 'logs/shop/a.jsonl')));
    assert.is(readFileSync(join(t.dir, 'console/trash/1234/logs/shop/a.jsonl'), 'utf8'), 'A');
    assert.is(readFileSync(join(t.dir, 'console/trash/1234/logs/shop/a.flow.jsonl'), 'utf8'), 'F');
  } finally {
    t.cleanup();
  }
});

trash('a path outside the data directory is refused', async () => {
  const t = tempDir();
  try {
    await moveToTrash(t.dir, ['../x'], 1);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, TrashError);
    assert.ok((err as TrashError).refused);
  } finally {
    t.cleanup();
  }
});

trash('an atomic write replaces the file whole and leaves no temp file', async () => {
  const t = tempDir();
  try {
    const p = join(t.dir, 'servers.json');
    writeFileSync(p, 'old');
    await writeFileAtomic(p, 'new content');
    assert.is(readFileSync(p, 'utf8'), 'new content');
    assert.equal(readdirSync(t.dir), ['servers.json']);
  } finally {
    t.cleanup();
  }
});

trash.run();
