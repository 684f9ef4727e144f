import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, linkSync } from 'node:fs';
import { join } from 'node:path';
import { Hub } from '../../server/events/hub.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';

const test = suite('store: sweep');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

test('a log changed where no notification reaches is found by the sweep and summarized again', async () => {
  const home = copyHome();
  const elsewhere = tempDir();
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub() });
  try {
    await s.open();
    await s.warm(30_000);
    const entry = s.sessions.readable[0]!;
    const before = entry.summary.size_bytes;
    // Written through a hard link in another directory: the data directory's watches are not told.
    const outside = join(elsewhere.dir, 'same.jsonl');
    linkSync(entry.path, outside);
    appendFileSync(outside, '\n');
    const deadline = Date.now() + 10_000;
    while (entry.summary.size_bytes === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.is(entry.summary.size_bytes, before + 1);
  } finally {
    s.close();
    elsewhere.cleanup();
    home.cleanup();
  }
});

test.run();
