// A request's work in the pool never waits behind the index's: with both index workers busy and more index
// batches queued, a session detail asked for then is answered before any of them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { packItems, type IndexItem } from '../../server/store/index-wire.ts';
import { createPool } from '../../server/workers/pool.ts';
import { fixtureHome, repoRoot } from '../support/fixtures.ts';

const test = suite('workers: the interactive lane');

const REL = 'logs/shop/20260928T020400.548Z-14457.jsonl';
const item: IndexItem = { key: 'k', rel: REL, path: join(fixtureHome, REL), flowLog: null, confirmLog: null, known: null };

test('a detail asked for while index batches fill the pool is answered before any of them', async () => {
  const pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
  try {
    // Start the index lane's workers first, so the batches below run at once.
    await pool.run('indexSessionsPackedTask', packItems([item]), 'index');
    const done: string[] = [];
    const batch = packItems(Array.from({ length: 3_000 }, () => item));
    const batches = Array.from({ length: pool.threads * 2 }, (_, i) =>
      pool.run('indexSessionsPackedTask', batch, 'index').then(() => done.push(`batch ${i}`)),
    );
    const detail = pool.run('sessionDetailTask', item).then((r) => {
      done.push('detail');
      return r;
    });
    assert.ok((await detail).ok);
    await Promise.all(batches);
    assert.is(done[0], 'detail', done.join(', '));
  } finally {
    await pool.destroy();
  }
});

test.run();
