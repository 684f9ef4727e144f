// The saved index is never held whole: a save writes each chunk before it makes the next, a load reads only
// the logs' paths, and a chunk's results are read from the file when the chunk is first asked for, checked by
// their SHA-256: from a file replaced since it was loaded, or a corrupt chunk, nothing is taken (its logs are
// read again, one stderr line for a corrupt one).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeSync, copyFileSync, existsSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { generateHome } from '../../scripts/synth/home.ts';
import { keyBase } from '../../server/engine/keys.ts';
import { Hub } from '../../server/events/hub.ts';
import { unpackItems } from '../../server/store/index-wire.ts';
import { hashInTurns, loadIndex, saveIndex } from '../../server/store/persisted-index.ts';
import { createHash } from 'node:crypto';
import { type FilterArena, MemoryFilters } from '../../server/store/search-filters.ts';
import { Store } from '../../server/store/store.ts';
import { summaryFormat } from '../../server/store/summary-format.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { indexSnapshot } from './index-snapshot.ts';

/** A log's key base, as the index gives its entry (what a saved entry is taken with). */
const baseOf = (rel: string): string => keyBase(rel.slice(rel.lastIndexOf('/') + 1, -'.jsonl'.length));

const test = suite('store: the saved index is read and written a chunk at a time');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

async function run(dataDir: string, file: string, p: Pool = pool): Promise<{ store: Store; warnings: string[] }> {
  const warnings: string[] = [];
  const store = new Store({ dataDir, pool: p, hub: new Hub(), savedIndex: { file, write: true }, warn: (l) => warnings.push(l), listSlice: 1 });
  await store.open();
  await store.warm(30_000);
  await store.searchFiltersMade;
  return { store, warnings };
}

/** A first run that saves its index to `file`: its logs' paths, the data directory's real path, its index as seen. */
async function savedOnce(dataDir: string, file: string): Promise<{ rels: string[]; root: string; snapshot: ReturnType<typeof indexSnapshot> }> {
  const first = await run(dataDir, file);
  await first.store.save();
  const root = first.store.tree.root;
  const snapshot = indexSnapshot(first.store);
  first.store.close();
  // In the order saved (the list's): a lookup by path follows it, with no map of places asked for.
  const rels: string[] = [];
  (await loadIndex(file, await summaryFormat(), root))?.forUntaken((rel) => rels.push(rel));
  return { rels, root, snapshot };
}

/** The pool, counting the logs sent to be read whole (no saved stamp to check them against). */
function countingPool(): { pool: Pool; readWhole: () => number } {
  let whole = 0;
  return {
    readWhole: () => whole,
    pool: {
      threads: pool.threads,
      destroy: async () => {},
      run(name, input) {
        if (name === 'newestLogsTask') return Promise.reject(new Error('no head in this test'));
        if (name === 'indexSessionsPackedTask' && input instanceof Uint8Array) whole += unpackItems(input).filter((i) => i.known === null).length;
        return pool.run(name, input);
      },
    },
  };
}

/** The filters of `real`, noting the size of the save's temp file each time one is copied (as its entry is packed). */
class WatchedArena extends MemoryFilters {
  readonly sizes: number[] = [];
  constructor(
    private readonly real: FilterArena,
    private readonly temp: string,
  ) {
    super();
  }
  override copy(slot: number): Uint8Array | null {
    this.sizes.push(existsSync(this.temp) ? statSync(this.temp).size : -1);
    return this.real.copy(slot);
  }
  override copyInto(slot: number, into: Uint8Array, at: number): boolean {
    this.sizes.push(existsSync(this.temp) ? statSync(this.temp).size : -1);
    return this.real.copyInto(slot, into, at);
  }
}

test('a save writes each chunk while it makes the next: while the last is packed, the file holds all but the one before it', async () => {
  const cache = tempDir();
  const home = tempDir();
  try {
    await generateHome({ dir: home.dir, sessions: 2_300, seed: 4, big: [] });
    const { store } = await run(home.dir, join(cache.dir, 'index.bin'));
    // The store's own save is let end first: it writes beside another file.
    await store.save();
    const file = join(cache.dir, 'direct.bin');
    const filters = new WatchedArena(store.sessions.filters, `${file}.${process.pid}.tmp`);
    const stamped = [...store.sessions.byRel.values()];
    // A log listed and not read yet, among them: not saved, and its chunk is one entry short.
    const unread = store.sessions.add(store.tree.root, [{ rel: 'logs/never-read.jsonl', name: 'never-read.jsonl', flowLog: false, confirmLog: false }]);
    await saveIndex(file, await summaryFormat(), store.tree.root, [...stamped.slice(0, 500), ...unread, ...stamped.slice(500)], filters, store.sessions.values);
    const saved = await loadIndex(file, await summaryFormat(), store.tree.root);
    store.close();
    assert.is(saved?.size, stamped.length);
    const order: string[] = [];
    saved?.forUntaken((rel) => order.push(rel));
    assert.equal(order, stamped.map((e) => e.rel));
    const chunks = saved?.source.chunks ?? [];
    assert.is(chunks.length, 3);
    assert.ok(filters.sizes.length > 2_000, `${filters.sizes.length} filters copied`);
    // While a chunk is packed, the one before it may still be written (two are held at most) and every one
    // before that is on disk: the first is while the last is packed. Nothing of the last, nor the header, is.
    assert.ok(Math.max(...filters.sizes) <= chunks[2]![0]);
    assert.ok(filters.sizes.slice(-200).every((size) => size >= chunks[1]![0]), 'the first chunk is on disk while the last is packed');
    assert.ok(filters.sizes.slice(0, 500).every((size) => size < chunks[1]![0]));
  } finally {
    cache.cleanup();
    home.cleanup();
  }
});

test('a load reads no results: a chunk asked for after the file was replaced gives nothing; one asked for before still answers', async () => {
  const home = copyHome();
  const cache = tempDir();
  try {
    const file = join(cache.dir, 'index.bin');
    const { rels, root } = await savedOnce(home.dir, file);
    const early = await loadIndex(file, await summaryFormat(), root);
    const late = await loadIndex(file, await summaryFormat(), root);
    assert.ok(early && late);
    assert.ok(early.get(rels[0]!, baseOf(rels[0]!)));
    // Another console saved over it: same bytes, another file.
    copyFileSync(file, `${file}.new`);
    renameSync(`${file}.new`, file);
    for (const rel of rels.slice(1)) assert.ok(early.get(rel, baseOf(rel)), rel);
    assert.is(late.size, rels.length);
    for (const rel of rels) assert.is(late.get(rel, baseOf(rel)), undefined, rel);
    // Gone: nothing either.
    const gone = await loadIndex(file, await summaryFormat(), root);
    rmSync(file);
    assert.is(gone?.get(rels[0]!, baseOf(rels[0]!)), undefined);
  } finally {
    home.cleanup();
    cache.cleanup();
  }
});

test("a chunk whose results are corrupt is not used: its logs are read again, with one stderr line, and the file is replaced", async () => {
  const home = copyHome();
  const cache = tempDir();
  try {
    const file = join(cache.dir, 'index.bin');
    const { snapshot: expected, root } = await savedOnce(home.dir, file);
    const [at, relsLength, resultsLength] = (await loadIndex(file, await summaryFormat(), root))!.source.chunks[0]!;
    const fd = openSync(file, 'r+');
    const byte = Buffer.alloc(1);
    const where = at + relsLength + Math.floor(resultsLength / 2);
    readSync(fd, byte, 0, 1, where);
    byte[0]! ^= 0xff;
    writeSync(fd, byte, 0, 1, where);
    closeSync(fd);
    const counting = countingPool();
    const again = await run(home.dir, file, counting.pool);
    assert.is(again.warnings.length, 1, again.warnings.join('\n'));
    assert.match(again.warnings[0]!, /corrupt/);
    assert.is(counting.readWhole(), again.store.sessions.size);
    assert.equal(indexSnapshot(again.store), expected);
    await again.store.save();
    again.store.close();
    const loaded = await loadIndex(file, await summaryFormat(), root);
    assert.ok(loaded);
    assert.is(loaded.size, again.store.sessions.size);
    // Every log looked up by path, in no particular order: its place is mapped.
    loaded.mapPlaces(loaded.source.chunks.length);
    for (const e of again.store.sessions.byRel.values()) assert.ok(loaded.get(e.rel, e.base), e.rel);
  } finally {
    home.cleanup();
    cache.cleanup();
  }
});

test('bytes hashed a piece per turn hash as at once', async () => {
  const bytes = Buffer.from(Array.from({ length: 1_000 }, (_, i) => (i * 7) % 256));
  const once = createHash('sha256').update(bytes).digest('hex');
  for (const piece of [1, 3, 7, 999, 1_000, 4_096]) {
    const hash = createHash('sha256');
    await hashInTurns(hash, bytes, piece);
    assert.is(hash.digest('hex'), once, `pieces of ${piece}`);
  }
});

test.run();
