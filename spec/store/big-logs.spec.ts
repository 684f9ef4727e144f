import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sessionIndex } from '../../server/engine/session/views.ts';
import { Hub } from '../../server/events/hub.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';

const test = suite('big logs');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

test('a big log is summarized alone and its page outline is made with it, in the spool, removed at close', async () => {
  const home = copyHome();
  // Every log counts as big here.
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, bigLogBytes: 1 });
  try {
    await s.open();
    await s.warm(30_000);
    assert.is(s.progress(), null);
    const readable = s.sessions.readable;
    assert.ok(readable.length > 0);
    assert.is(s.bigOutlines.size, readable.length);
    for (const e of readable) {
      const held = s.bigOutlines.get(e.path);
      assert.ok(held, e.rel);
      assert.is(held!.stamp, e.stamp);
      assert.is(statSync(held!.file).mode & 0o777, 0o600);
      assert.equal(JSON.parse(readFileSync(held!.file, 'utf8')), JSON.parse(JSON.stringify(sessionIndex(e))), e.rel);
    }
    const files = [...s.bigOutlines.values()].map((h) => h.file);
    s.close();
    for (const f of files) assert.not.ok(existsSync(f), `${f} is removed with the spool`);
  } finally {
    s.close();
    home.cleanup();
  }
});

test.run();
