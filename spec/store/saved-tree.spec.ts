// The tree saved with the index: a restart does not list a directory whose stamp is the one its names were saved
// with, and lists its logs from the saved index alone; a log changed in place there is read again, a directory
// that changed is listed, and the index equals a fresh one whatever was kept.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hub } from '../../server/events/hub.ts';
import { type FirstWalk, logAt, namesOf, NOT_SAVED } from '../../server/store/first-walk.ts';
import { loadIndex, readSavedTree, type SavedSource } from '../../server/store/persisted-index.ts';
import { decodeTree, encodeDir, joinedInTurns, STILL_MS, TreeAgreement, type TreeDir } from '../../server/store/saved-tree.ts';
import { SavedListing } from '../../server/store/saved-listing.ts';
import { EntriesByPath } from '../../server/store/session-index.ts';
import { Store } from '../../server/store/store.ts';
import { walkFromRecords } from '../../server/store/walk-answer.ts';
import { summaryFormat } from '../../server/store/summary-format.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { ageDirs } from '../support/aged-dirs.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { indexSnapshot } from './index-snapshot.ts';

const test = suite('store: directories kept from the saved index');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

/** The test pool with its `run` in place of the pool's own. */
const poolWith = (run: Pool['run']): Pool => ({ threads: pool.threads, destroy: async () => {}, run });

/** Until `ready()` holds (looked at every 5 ms, for 10 s at most): whether it does then. */
async function until(ready: () => boolean): Promise<boolean> {
  for (let i = 0; i < 2_000 && !ready(); i++) await new Promise((r) => setTimeout(r, 5));
  return ready();
}

/** A run of the store; `walks` gets each walk it is answered (read from the spool before the store reads it). */
async function run(dataDir: string, file: string | null, walks: FirstWalk[] = []): Promise<Store> {
  const p = poolWith((name, input, lane) => {
    const answer = pool.run(name, input, lane);
    if (name !== 'walkTreeTask') return answer;
    return answer.then((a) =>
      walkFromRecords(readFileSync((input as { out: string }).out)).then((walk) => {
        walks.push(walk);
        return a;
      }),
    );
  });
  const store = new Store({ dataDir, pool: p, hub: new Hub(), savedIndex: file === null ? null : { file, write: true }, warn: () => {}, listSlice: 2 });
  await store.open();
  await store.warm(30_000);
  await store.searchFiltersMade;
  return store;
}

async function savedSource(file: string, home: string): Promise<SavedSource> {
  let source: SavedSource | null = null;
  await loadIndex(file, await summaryFormat(), home, (s) => (source = s));
  return source!;
}

async function assertAsFresh(store: Store, home: string): Promise<void> {
  const restarted = indexSnapshot(store);
  store.close();
  const fresh = await run(home, null);
  assert.equal(restarted, indexSnapshot(fresh));
  fresh.close();
}

/** A copy of the fixture home (its directories aged unless `aged` is false) whose index one run saved: `body` gets its paths and that run's oldest session. */
async function withSavedHome(body: (home: string, file: string, oldest: { key: string; rel: string }) => Promise<void>, aged = true): Promise<void> {
  const home = copyHome();
  const cache = tempDir();
  const file = join(cache.dir, 'index.bin');
  try {
    if (aged) ageDirs(home.dir);
    const first = await run(home.dir, file);
    await first.save();
    const { key, rel } = first.sessions.readable.at(-1)!;
    first.close();
    await body(home.dir, file, { key, rel });
  } finally {
    home.cleanup();
    cache.cleanup();
  }
}

const keptRels = (walk: FirstWalk) => walk.dirs.filter((d) => d.kept).map((d) => d.rel);
const logPaths = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.jsonl') && !n.endsWith('.flow.jsonl') && !n.endsWith('.confirm.jsonl')).sort().map((n) => join(dir, n));

test('a restart with nothing changed lists no directory, and a log grown in place is read again', () =>
  withSavedHome(async (homeDir, file) => {
    const dirs = [...readSavedTree(await savedSource(file, homeDir)).keys()].sort();
    assert.ok(dirs.includes('') && dirs.includes('logs/shop'), `saved: ${dirs.join(', ')}`);

    const walks: FirstWalk[] = [];
    const again = await run(homeDir, file, walks);
    assert.is(walks.length, 1);
    assert.equal(keptRels(walks[0]!).sort(), walks[0]!.dirs.map((d) => d.rel).sort(), 'every directory kept');
    assert.is(walks[0]!.flags.length, 0, 'no log listed by the walk');
    await assertAsFresh(again, homeDir);

    // Grown in place: its directory's stamp does not move, so it is kept, and the log is read again from the check.
    const grown = logPaths(join(homeDir, 'logs/shop'))[0]!;
    const line = readFileSync(grown, 'utf8').split('\n').filter(Boolean).at(-1)!;
    appendFileSync(grown, `${line}\n`);
    const walks2: FirstWalk[] = [];
    const third = await run(homeDir, file, walks2);
    assert.ok(keptRels(walks2[0]!).includes('logs/shop'));
    const rel = grown.slice(homeDir.length + 1);
    assert.is(third.sessions.byRel.get(rel)!.stamp!.split('|')[0]!.split(':')[2], String(statSync(grown).size), 'read again at its new size');
    await assertAsFresh(third, homeDir);
  }));

test('a directory that changed while stopped is read again, and only what changed in it is listed by the walk; the others are kept', () =>
  withSavedHome(async (homeDir, file) => {
    // A companion comes beside a log of logs/shop: its directory changes.
    const shop = join(homeDir, 'logs/shop');
    const bare = logPaths(shop).find((p) => !readdirSync(shop).includes(`${p.slice(shop.length + 1, -'.jsonl'.length)}.flow.jsonl`))!;
    const donor = readdirSync(homeDir, { recursive: true, encoding: 'utf8' }).find((n) => n.endsWith('.flow.jsonl'))!;
    copyFileSync(join(homeDir, donor), `${bare.slice(0, -'.jsonl'.length)}.flow.jsonl`);
    // Another is deleted, and one is made.
    const logs = logPaths(shop).filter((p) => p !== bare);
    rmSync(logs[0]!);
    copyFileSync(logs[1]!, join(shop, '20991231T000000.000Z-1.jsonl'));
    const walks: FirstWalk[] = [];
    const again = await run(homeDir, file, walks);
    const walk = walks[0]!;
    const shopDir = walk.dirs.find((d) => d.rel === 'logs/shop')!;
    assert.ok(shopDir.diffed, 'logs/shop is read again');
    assert.ok(walk.dirs.filter((d) => d.kept && !d.diffed).length > 0, 'the other directories are kept');
    // Only what changed is listed by the walk: the log whose companion came, and the one made.
    const names = namesOf(walk);
    const listed = Array.from({ length: walk.flags.length }, (_, i) => logAt(walk, names, i).rel).sort();
    assert.equal(listed, ['logs/shop/20991231T000000.000Z-1.jsonl', bare.slice(homeDir.length + 1)].sort());
    // The one made is known to have no saved entry (read at once); the other has one.
    const fresh = Array.from({ length: walk.flags.length }, (_, i) => i).filter((i) => (walk.flags[i]! & NOT_SAVED) !== 0).map((i) => logAt(walk, names, i).rel);
    assert.equal(fresh, ['logs/shop/20991231T000000.000Z-1.jsonl']);
    assert.ok(again.sessions.byRel.get(bare.slice(homeDir.length + 1))!.hasFlowLog);
    assert.not.ok(again.sessions.byRel.has(logs[0]!.slice(homeDir.length + 1)));
    await assertAsFresh(again, homeDir);
  }));

test('a log listed from the saved index and deleted before the walk reads its directory again is removed', () =>
  withSavedHome(async (homeDir, file) => {
    const shop = join(homeDir, 'logs/shop');
    const [gone, donor] = logPaths(shop);
    const goneRel = gone!.slice(homeDir.length + 1);
    // logs/shop changes while stopped (read again at the restart); `gone` is deleted once listed from the saved index.
    copyFileSync(donor!, join(shop, '20991231T000000.000Z-1.jsonl'));
    let store: Store | null = null;
    let listedBeforeWalk = false;
    const p = poolWith((name, input, lane) => {
      if (name !== 'walkTreeTask') return pool.run(name, input, lane);
      const listed = async () => {
        listedBeforeWalk = await until(() => store?.sessions.byRel.has(goneRel) ?? false);
        rmSync(gone!);
      };
      return listed().then(() => pool.run(name, input, lane));
    });
    store = new Store({ dataDir: homeDir, pool: p, hub: new Hub(), savedIndex: { file, write: false }, warn: () => {}, listSlice: 2 });
    await store.open();
    await store.warm(30_000);
    await store.searchFiltersMade;
    assert.ok(listedBeforeWalk, 'listed from the saved index before the walk');
    assert.not.ok(store.sessions.byRel.has(goneRel));
    await assertAsFresh(store, homeDir);
  }));

test('a log made in a kept directory while stopped, listed before the check, does not make the saved listing look each saved log up', () =>
  withSavedHome(async (homeDir, file) => {
    const shop = join(homeDir, 'logs/shop');
    const made = join(shop, '20991231T000000.000Z-1.jsonl');
    copyFileSync(logPaths(shop)[0]!, made);
    const madeRel = made.slice(homeDir.length + 1);
    const savedRels = new Set(readdirSync(homeDir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.jsonl') && !n.endsWith('.flow.jsonl') && !n.endsWith('.confirm.jsonl') && n !== madeRel));
    // The check's answers wait until the walk has listed the log made (it can be no saved entry).
    let store: Store | null = null;
    let listedFirst = false;
    const p = poolWith((name, input, lane) => {
      const answer = pool.run(name, input, lane);
      if (name !== 'checkSavedTask') return answer;
      const walked = async () => {
        listedFirst = await until(() => store?.sessions.byRel.has(madeRel) ?? false);
      };
      return walked().then(() => answer);
    });
    // Lookups by path of the saved logs: only the listing of the check's parts would make them.
    let lookedUp = 0;
    const get = EntriesByPath.prototype.get;
    EntriesByPath.prototype.get = function (this: EntriesByPath, rel: string) {
      if (savedRels.has(rel)) lookedUp++;
      return get.call(this, rel);
    };
    try {
      store = new Store({ dataDir: homeDir, pool: p, hub: new Hub(), savedIndex: { file, write: false }, warn: () => {}, listSlice: 2 });
      await store.open();
      await store.warm(30_000);
      await store.searchFiltersMade;
    } finally {
      EntriesByPath.prototype.get = get;
    }
    assert.ok(listedFirst, 'the log made was listed before the check came in');
    assert.ok(savedRels.size > 10, `${savedRels.size} saved logs`);
    assert.is(lookedUp, 0, 'no saved log looked up by path');
    assert.ok(store.sessions.byRel.has(madeRel));
    await assertAsFresh(store, homeDir);
  }));

test('a session asked for by key before its part of the check is in is listed at once, with its saved summary', () =>
  withSavedHome(async (homeDir, file, { key, rel }) => {
    // The check's answers wait until the session is found.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const p = poolWith((name, input, lane) => {
      const answer = pool.run(name, input, lane);
      return name === 'checkSavedTask' ? held.then(() => answer) : answer;
    });
    const store = new Store({ dataDir: homeDir, pool: p, hub: new Hub(), savedIndex: { file, write: false }, warn: () => {}, listSlice: 2 });
    const opening = store.open();
    // Bounded: without the lookup by name it would wait for the check it holds.
    const e = await Promise.race([store.sessionWhileListing(key), new Promise<undefined>((r) => setTimeout(() => r(undefined), 5_000))]);
    assert.ok(e, 'found while the check is held');
    assert.is(e!.rel, rel);
    assert.ok(e!.stamp !== null && e!.summary !== null, 'with its saved summary');
    assert.is(store.sessions.size, 1, 'nothing else is listed yet');
    release();
    await opening;
    await store.warm(30_000);
    await store.searchFiltersMade;
    await assertAsFresh(store, homeDir);
  }));

/** Runs `body` counting the listed logs `unseen` looks at one by one (SavedListing's isGone). */
async function countingGoneLooks<T>(body: () => Promise<T>): Promise<{ value: T; looks: number }> {
  const proto = SavedListing.prototype as unknown as { isGone: (...args: unknown[]) => boolean };
  const isGone = proto.isGone;
  let looks = 0;
  proto.isGone = function (this: SavedListing, ...args: unknown[]) {
    looks++;
    return isGone.apply(this, args);
  };
  try {
    return { value: await body(), looks };
  } finally {
    proto.isGone = isGone;
  }
}

test('with every saved log in a directory as saved, no listed log is looked at for the gone ones; with a log deleted, each is', () =>
  withSavedHome(async (homeDir, file) => {
    const walks: FirstWalk[] = [];
    const still = await countingGoneLooks(() => run(homeDir, file, walks));
    assert.ok(walks[0]!.dirs.every((d) => d.kept && !d.diffed), 'every directory as saved');
    assert.ok(still.value.sessions.size > 10, `${still.value.sessions.size} sessions`);
    assert.is(still.looks, 0, 'no listed log looked at');
    await assertAsFresh(still.value, homeDir);

    // A file made in the data directory, which holds no log: it is read again, and no listed log is looked at.
    writeFileSync(join(homeDir, 'notes.txt'), 'x');
    const walks2: FirstWalk[] = [];
    const rootMoved = await countingGoneLooks(() => run(homeDir, file, walks2));
    assert.ok(walks2[0]!.dirs.find((d) => d.rel === '')!.diffed, 'the data directory read again');
    assert.is(rootMoved.looks, 0, 'no listed log looked at');
    await assertAsFresh(rootMoved.value, homeDir);

    // A log deleted while stopped moves its directory's stamp: the directory is read again, so each listed log is
    // looked at, and the deleted one is not listed.
    const gone = logPaths(join(homeDir, 'logs/shop'))[0]!;
    rmSync(gone);
    const walks3: FirstWalk[] = [];
    const changed = await countingGoneLooks(() => run(homeDir, file, walks3));
    assert.ok(walks3[0]!.dirs.find((d) => d.rel === 'logs/shop')!.diffed, 'logs/shop read again');
    assert.ok(changed.looks > 0, 'listed logs looked at');
    assert.not.ok(changed.value.sessions.byRel.has(gone.slice(homeDir.length + 1)));
    await assertAsFresh(changed.value, homeDir);
  }));

test('a directory changed less than STILL_MS before it was stamped is not saved', () =>
  // Copied just now: every directory changed a moment ago.
  withSavedHome(async (homeDir, file) => {
    assert.is(readSavedTree(await savedSource(file, homeDir)).size, 0);
    assert.ok(STILL_MS >= 1_000);
  }, false));

test('a directory is saved only if its session logs are exactly the saved entries in it, with the companions their stamps name', async () => {
  const dir = (rel: string, names: string[]): TreeDir => ({ rel, depth: 2, stamp: '1:1:1', names: [...names].sort(), dirs: [] });
  const agreement = new TreeAgreement([
    dir('a', ['1.jsonl', '1.flow.jsonl', '2.jsonl']),
    dir('b', ['1.jsonl', '2.jsonl']),
    dir('c', ['1.jsonl', '1.flow.jsonl']),
    dir('d', ['1.jsonl']),
    dir('e', ['1.jsonl', 'notes.txt']),
    dir('f', ['1.jsonl', '2.jsonl', '2.confirm.jsonl']),
    dir('g', ['1.jsonl', '2.jsonl']),
    dir('h', ['1.jsonl', '1.confirm.jsonl', '1.flow.jsonl']),
    dir('i', ['1.jsonl', '1.flow.jsonl']),
    // Names between a log and its companions: looked past, then searched for.
    dir('j', ['1.confirm.jsonl', ...Array.from({ length: 12 }, (_, k) => `1.d${k}`), '1.jsonl', '2.jsonl', ...Array.from({ length: 12 }, (_, k) => `2.d${k}`)]),
    // A stem that begins another's, and a log whose stem has a dot: neither's names are the other's companions.
    dir('k', ['1.jsonl', '1.confirm.jsonl', '1.flow.jsonl', '10.flow.jsonl', '10.jsonl', '1.b.jsonl']),
    dir('l', ['1.jsonl', '10.flow.jsonl', '10.jsonl']),
  ]);
  agreement.note('a/1.jsonl', 's|f|-');
  agreement.note('a/2.jsonl', 's|-|-');
  agreement.note('b/1.jsonl', 's|-|-'); // b/2.jsonl has no saved entry
  agreement.note('c/1.jsonl', 's|-|-'); // its flow log is there, its stamp names none
  agreement.note('d/1.jsonl', 's|-|-');
  agreement.note('d/3.jsonl', 's|-|-'); // a saved entry with no log in the directory
  agreement.note('e/1.jsonl', 's|-|c'); // its stamp names a confirm log that is not there
  agreement.note('f/1.jsonl', 's|-|-');
  agreement.note('f/2.jsonl', 's|-|c');
  agreement.note('g/1.jsonl', 's|-|-');
  agreement.note('g/2.jsonl', 's|-'); // a stamp of another shape
  agreement.note('h/1.jsonl', 's|f|c|-'); // and another
  agreement.note('i/1.jsonl', 's|-1|-'); // only `-` itself names none
  agreement.note('j/1.jsonl', 's|-|c');
  agreement.note('j/2.jsonl', 's|-|-');
  agreement.note('k/10.jsonl', 's|f|-');
  agreement.note('k/1.jsonl', 's|f|c');
  agreement.note('k/1.b.jsonl', 's|-|-');
  agreement.note('l/10.jsonl', 's|-|-'); // its flow log is there, its stamp names none
  agreement.note('l/1.jsonl', 's|-|-');
  const agreeing = await agreement.agreeing();
  assert.equal(agreeing.map((d) => d.dir.rel), ['a', 'f', 'i', 'j', 'k']);
  assert.is(agreeing[0]!.logs, 2);
});

test('a directory of more names than a turn takes is joined and counted over several turns, as at once', async () => {
  const stems = Array.from({ length: 100_001 }, (_, i) => String(i).padStart(6, '0'));
  const names = [...stems.map((s) => `${s}.jsonl`), ...stems.filter((_, i) => i % 3 === 0).map((s) => `${s}.flow.jsonl`)].sort();
  assert.is(await joinedInTurns(names), names.join('\u0000'));
  assert.is(await joinedInTurns(names.slice(0, 3)), names.slice(0, 3).join('\u0000'));
  assert.is(await joinedInTurns([]), '');
  const agreement = new TreeAgreement([{ rel: 'big', depth: 2, stamp: '1:1:1', names, dirs: [] }, { rel: 'small', depth: 2, stamp: '1:1:1', names: ['a.jsonl'], dirs: [] }]);
  // Newest first, as a save writes them (each found just below the last), but for a few out of order.
  const order = stems.map((_, i) => i).reverse();
  [order[10], order[5_000]] = [order[5_000]!, order[10]!];
  for (const i of order) agreement.note(`big/${stems[i]}.jsonl`, i % 3 === 0 ? 's|f|-' : 's|-|-');
  agreement.note('small/a.jsonl', 's|-|-');
  assert.equal((await agreement.agreeing()).map((d) => [d.dir.rel, d.logs]), [['big', stems.length], ['small', 1]]);
});

test('the saved directories read back as written, a record each; a cut or foreign record reads as none', () => {
  const dirs = [
    { dir: { rel: '', depth: 1, stamp: '1:2:3', names: ['logs', 'shop.flow.json'], dirs: ['logs'] }, logs: 0 },
    { dir: { rel: 'logs/shop', depth: 3, stamp: '4:5:6', names: ['a.flow.jsonl', 'a.jsonl', 'é.jsonl'], dirs: [] }, logs: 2 },
  ];
  const bytes = Buffer.concat(dirs.map(encodeDir));
  const back = decodeTree(bytes)!;
  assert.equal([...back.keys()], ['', 'logs/shop']);
  assert.equal(back.get('logs/shop'), { rel: 'logs/shop', depth: 3, stamp: '4:5:6', names: 'a.flow.jsonl\u0000a.jsonl\u0000é.jsonl', dirs: [], logs: 2 });
  assert.equal(decodeTree(Buffer.alloc(0))!.size, 0);
  assert.is(decodeTree(bytes.subarray(0, bytes.length - 3)), null);
  assert.is(decodeTree(Buffer.concat([bytes, Buffer.from([0, 0, 0, 2, 1, 2])])), null);
  // Names that would lead out of their directory are refused with the whole list: every directory is read.
  const hostile = (dir: Partial<TreeDir>) => decodeTree(encodeDir({ dir: { ...dirs[1]!.dir, ...dir }, logs: 0 }));
  assert.is(hostile({ rel: 'logs/../..' }), null);
  assert.is(hostile({ names: ['../../etc/passwd.jsonl'] }), null);
  assert.is(hostile({ names: ['..'] }), null);
  assert.is(hostile({ dirs: ['a/b'] }), null);
  assert.ok(hostile({ names: ['ok.jsonl'] }));
});

test.run();
