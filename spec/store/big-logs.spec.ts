import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
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

test('a big log is summarized alone and its page outline is made once the cold index is done, in the spool, removed at close', async () => {
  const home = copyHome();
  // Every log counts as big here.
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, bigLogBytes: 1 });
  try {
    await s.open();
    await s.warm(30_000);
    assert.is(s.progress(), null);
    await s.outlined();
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
    // A big log that changes later is read alone again, its outline with it.
    const e = readable[0]!;
    const before = e.stamp;
    appendFileSync(e.path, '\n');
    utimesSync(e.path, new Date(), new Date(Date.now() + 5_000));
    for (let i = 0; i < 100 && e.stamp === before; i++) {
      await s.touched();
      await s.sync();
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.is.not(e.stamp, before);
    assert.is(s.bigOutlines.get(e.path)?.stamp, e.stamp);
    const files = [...s.bigOutlines.values()].map((h) => h.file);
    s.close();
    for (const f of files) assert.not.ok(existsSync(f), `${f} is removed with the spool`);
  } finally {
    s.close();
    home.cleanup();
  }
});

test.run();
