import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { sessionIndex } from '../../server/engine/session/views.ts';
import { Hub } from '../../server/events/hub.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { keptOutlinesDir } from '../../server/store/persisted-index.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';

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
      const held = s.bigOutlines.find(e.path, e.stamp!);
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
    assert.is(s.bigOutlines.find(e.path, e.stamp!)?.stamp, e.stamp);
    const files = [...s.bigOutlines.values()].map((h) => h.file);
    s.close();
    for (const f of files) assert.not.ok(existsSync(f), `${f} is removed with the spool`);
  } finally {
    s.close();
    home.cleanup();
  }
});

test('with a saved index, big logs\' outlines are kept beside it: a restart finds them at once, but not for a log changed meanwhile, and a read-only console writes none', async () => {
  const home = copyHome();
  const cache = tempDir();
  const savedIndex = { file: join(cache.dir, 'index.bin'), write: true };
  const kept = keptOutlinesDir(savedIndex.file);
  const open = async (write: boolean) => {
    const s = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, bigLogBytes: 1, savedIndex: { ...savedIndex, write } });
    await s.open();
    await s.warm(30_000);
    return s;
  };
  try {
    const first = await open(true);
    await first.outlined();
    await first.save();
    const readable = first.sessions.readable;
    assert.ok(readable.length > 1);
    first.close();
    assert.is(readdirSync(kept).filter((n) => n.endsWith('.json')).length, readable.length);
    for (const n of readdirSync(kept)) assert.is(statSync(join(kept, n)).mode & 0o777, 0o600);
    const changed = readable[0]!;
    appendFileSync(changed.path, '\n');
    utimesSync(changed.path, new Date(), new Date(Date.now() + 5_000));

    const again = await open(true);
    for (const e of again.sessions.readable) {
      const found = again.bigOutlines.find(e.path, e.stamp!);
      if (e.rel === changed.rel) {
        assert.is(found, undefined, 'a log changed while the console was stopped has no outline kept for it');
        continue;
      }
      assert.ok(found?.file.startsWith(`${kept}/`), e.rel);
      assert.equal(JSON.parse(readFileSync(found!.file, 'utf8')), JSON.parse(JSON.stringify(sessionIndex(e))), e.rel);
    }
    // The changed log's outline is made again once the cold index is done, and kept too.
    await again.outlined();
    const remade = again.sessions.byRel.get(changed.rel)!;
    assert.ok(again.bigOutlines.find(remade.path, remade.stamp!)?.file.startsWith(`${kept}/`));
    again.close();

    const before = readdirSync(kept).sort();
    appendFileSync(readable[1]!.path, '\n');
    const readOnly = await open(false);
    await readOnly.outlined();
    readOnly.close();
    assert.equal(readdirSync(kept).sort(), before);
  } finally {
    home.cleanup();
    cache.cleanup();
  }
});

test.run();
