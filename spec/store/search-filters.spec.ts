// The sessions' search filters as the store keeps them: made for every session the cold index read once it is
// done (waiting while a request holds the put-off work), saved with the index and taken back at a restart without a pass, and set aside for a log whose files
// changed since its filter was made until it is read again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hub } from '../../server/events/hub.ts';
import { filterMayHold, phraseBits } from '../../server/search/trigram-filter.ts';
import { IndexSaver } from '../../server/store/index-saver.ts';
import { FILTER_BYTES } from '../../server/store/search-filters.ts';
import { Store } from '../../server/store/store.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';

const test = suite('store: search filters');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

async function opened(dataDir: string, savedIndex: { file: string; write: boolean } | null = null, filterPassPiece?: number): Promise<Store> {
  const store = new Store({ dataDir, pool, hub: new Hub(), savedIndex, warn: () => {}, filterPassPiece });
  await store.open();
  await store.warm(30_000);
  await store.searchFiltersMade;
  return store;
}

/** Each readable session's filter, as its store reads it back (base64; null: none, or none that reads). */
function filtersOf(store: Store): (string | null)[] {
  return store.sessions.readable.map((e) => {
    const bytes = e.filterSlot < 0 ? null : store.sessions.filters.copy(e.filterSlot);
    return bytes === null ? null : Buffer.from(bytes).toString('base64');
  });
}

/** The readable sessions whose filter does not rule out the phrase (those a search reads). */
function notRuledOut(store: Store, phrase: string): string[] {
  const bits = phraseBits(phrase);
  if (bits === null) throw new Error(`"${phrase}" has no trigram`);
  return store.sessions.readable.filter((e) => {
    const at = store.searchFilterAt(e);
    const bytes = at < 0 ? null : store.sessions.filters.copy(e.filterSlot);
    return bytes === null || filterMayHold(bytes, 0, bits);
  }).map((e) => e.summary.session_id);
}

test('every session the cold index read has a filter once its pass is done, and it rules out the sessions without the phrase', async () => {
  const home = copyHome();
  try {
    const store = await opened(home.dir);
    const readable = store.sessions.readable;
    assert.ok(readable.length > 5);
    assert.equal(readable.filter((e) => store.searchFilterAt(e) < 0).map((e) => e.rel), []);
    assert.equal(notRuledOut(store, '#W41A'), ['20260928T020401.117Z-14662']);
    store.close();
  } finally {
    home.cleanup();
  }
});

test('the pass looking through a few sessions a turn makes the filters a pass looking through all at once makes', async () => {
  const home = copyHome();
  try {
    const whole = await opened(home.dir);
    const inPieces = await opened(home.dir, null, 2);
    assert.ok(filtersOf(whole).every((f) => f !== null));
    assert.equal(filtersOf(inPieces), filtersOf(whole));
    whole.close();
    inPieces.close();
  } finally {
    home.cleanup();
  }
});

test('the filters wait while a request holds the put-off work, are made once it lets go, and a close ends the wait', async () => {
  const home = copyHome();
  try {
    const store = new Store({ dataDir: home.dir, pool, hub: new Hub(), savedIndex: null, warn: () => {} });
    const release = store.putOff.hold();
    await store.open();
    await store.warm(30_000);
    let made = false;
    void store.searchFiltersMade.then(() => (made = true));
    await new Promise((r) => setTimeout(r, 300));
    assert.not.ok(made);
    assert.ok(store.sessions.readable.length > 5);
    assert.equal(store.sessions.readable.filter((e) => store.searchFilterAt(e) >= 0).length, 0);
    release();
    await store.searchFiltersMade;
    assert.equal(store.sessions.readable.filter((e) => store.searchFilterAt(e) < 0).map((e) => e.rel), []);
    store.close();

    const closing = new Store({ dataDir: home.dir, pool, hub: new Hub(), savedIndex: null, warn: () => {} });
    closing.putOff.hold();
    await closing.open();
    await closing.warm(30_000);
    closing.close();
    await closing.searchFiltersMade;
  } finally {
    home.cleanup();
  }
});

test('a restart takes the filters from the saved index, and a log appended to has its filter set aside until it is read again', async () => {
  const home = copyHome();
  const cache = tempDir();
  const saved = { file: join(cache.dir, 'index.bin'), write: true };
  try {
    const first = await opened(home.dir, saved);
    const before = filtersOf(first);
    await first.save();
    first.close();
    const again = new Store({ dataDir: home.dir, pool, hub: new Hub(), savedIndex: saved, warn: () => {} });
    await again.open();
    await again.warm(30_000);
    // Before any pass: the saved filters are in with the saved summaries.
    assert.equal(filtersOf(again), before);
    const e = again.sessions.readable.find((x) => x.summary.session_id === '20260928T020400.548Z-14457');
    if (!e) throw new Error('the fixture session is missing');
    assert.ok(!notRuledOut(again, 'Plover-appended').includes(e.summary.session_id));
    appendFileSync(e.path, `${JSON.stringify({ t_ms: 9, from: 'context', message: { role: 'user', content: 'Plover-appended' } })}\n`);
    await again.touched();
    // Queued for its re-read (or put off, if it grows fast): its old filter no longer answers for it.
    assert.is(again.searchFilterAt(e), -1);
    // A log read again within its growing pause waits for it (feeder.ts: rereadDelay): at most a few seconds.
    for (let i = 0; i < 100 && again.searchFilterAt(e) < 0; i++) {
      await again.sync();
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(again.searchFilterAt(e) >= 0);
    assert.ok(again.searchFilterAt(e) % FILTER_BYTES === 0);
    assert.ok(notRuledOut(again, 'Plover-appended').includes(e.summary.session_id));
    again.close();
  } finally {
    home.cleanup();
    cache.cleanup();
  }
});

test('a save in flight when its store closes is let go: the saved index is left as it was, never given filters read from the closed arena', async () => {
  const home = copyHome();
  const cache = tempDir();
  try {
    const store = await opened(home.dir, { file: join(cache.dir, 'index.bin'), write: true });
    await store.save();
    const made = filtersOf(store);
    assert.ok(made.length > 5 && made.every((f) => f !== null));
    // Begun, then the store closes (its arena, a file in the cache directory, with it) before a filter is copied.
    const file = join(cache.dir, 'other.bin');
    const saver = new IndexSaver({ file, write: true }, store.tree.root, store.sessions, () => {});
    const saving = saver.save();
    saver.close();
    store.close();
    await saving;
    assert.not.ok(existsSync(file), 'the save was let go');
    // The next run over that file makes the filters anew, the ones the first made.
    const next = await opened(home.dir, { file, write: true });
    assert.equal(filtersOf(next), made);
    next.close();
  } finally {
    home.cleanup();
    cache.cleanup();
  }
});

test('a store closed just as its filter pass ends, its save in flight: the next run in the same cache directory has the filters the pass made', async () => {
  const home = copyHome();
  const cache = tempDir();
  const saved = { file: join(cache.dir, 'index.bin'), write: true };
  try {
    const first = new Store({ dataDir: home.dir, pool, hub: new Hub(), savedIndex: saved, warn: () => {} });
    let made: (string | null)[] = [];
    // After the store's own reaction to the pass (a save begun), in the same turn.
    const closed = first.searchFiltersMade.then(() => {
      made = filtersOf(first);
      first.close();
    });
    await first.open();
    await closed;
    // Once closed, a save begins none and waits for the one in flight.
    await first.save();
    assert.ok(made.length > 5 && made.every((f) => f !== null));
    const next = await opened(home.dir, saved);
    assert.equal(filtersOf(next), made);
    next.close();
  } finally {
    home.cleanup();
    cache.cleanup();
  }
});

test.run();
