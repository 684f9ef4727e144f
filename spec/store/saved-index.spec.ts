// The index saved between runs: a restart with nothing changed reads no log again; a file that is truncated,
// corrupt, foreign, of another data directory or another summary format is ignored with one stderr line and
// replaced; a read-only console never writes one; a session costs at most 1 KB of it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateHome } from '../../scripts/synth/home.ts';
import { Hub } from '../../server/events/hub.ts';
import { unpackItems } from '../../server/store/index-wire.ts';
import { checkSaved, loadIndex } from '../../server/store/persisted-index.ts';
import type { SessionEntry } from '../../server/store/session-index.ts';
import { Store } from '../../server/store/store.ts';
import { summaryFormat } from '../../server/store/summary-format.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { indexSnapshot } from './index-snapshot.ts';
import { swapDirs, twins } from '../support/twin-dirs.ts';

const test = suite('store: the index saved between runs');

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

/**
 * The pool, counting the logs sent to be read whole (no stamp known) and those sent with a stamp to check; the
 * head scan is refused, so every log goes through the walk, which waits for the saved index.
 */
function countingPool(): { pool: Pool; readWhole: () => number; sentToCheck: () => number } {
  let whole = 0;
  let check = 0;
  return {
    readWhole: () => whole,
    sentToCheck: () => check,
    pool: {
      threads: pool.threads,
      destroy: async () => {},
      run(name, input) {
        if (name === 'newestLogsTask') return Promise.reject(new Error('no head in this test'));
        if (name === 'indexSessionsPackedTask' && input instanceof Uint8Array) {
          const items = unpackItems(input);
          whole += items.filter((i) => i.known === null).length;
          check += items.filter((i) => i.known !== null).length;
        }
        return pool.run(name, input);
      },
    },
  };
}

async function run(dataDir: string, savedIndex: { file: string; write: boolean } | null, p: Pool = pool): Promise<{ store: Store; warnings: string[] }> {
  const warnings: string[] = [];
  // Slices of one log: the first (read at once as the first page) is then the newest log alone.
  const store = new Store({ dataDir, pool: p, hub: new Hub(), savedIndex, warn: (l) => warnings.push(l), listSlice: 1 });
  await store.open();
  await store.warm(30_000);
  // The filters the cold index leaves to a pass of their own: a snapshot holds them.
  await store.searchFiltersMade;
  return { store, warnings };
}

function setUp(): { home: string; file: string; cleanup: () => void } {
  const home = copyHome();
  const cache = tempDir();
  return {
    home: home.dir,
    file: join(cache.dir, 'index.bin'),
    cleanup: () => {
      home.cleanup();
      cache.cleanup();
    },
  };
}

/** A first run that saves its index: its entries, newest first. */
async function savedRun(t: { home: string; file: string }): Promise<SessionEntry[]> {
  const first = await run(t.home, { file: t.file, write: true });
  await first.store.save();
  const entries = [...first.store.sessions.byRel.values()];
  first.store.close();
  return entries;
}

/** The restarted store's index equals a fresh one of the same files (the store is closed). */
async function assertAsFresh(store: Store, home: string): Promise<void> {
  const restarted = indexSnapshot(store);
  store.close();
  const fresh = await run(home, null);
  assert.equal(restarted, indexSnapshot(fresh.store));
  fresh.store.close();
}

test('a restart with nothing changed reads no log again, and sees what the first run saw', async () => {
  const t = setUp();
  try {
    const first = await run(t.home, { file: t.file, write: true });
    await first.store.save();
    const before = indexSnapshot(first.store);
    first.store.close();
    const written = statSync(t.file, { bigint: true }).mtimeNs;
    // A save cut off by a kill left its temp file: the next save removes it.
    const dead = `${t.file}.999999999.tmp`;
    writeFileSync(dead, 'half a save');
    const counting = countingPool();
    const again = await run(t.home, { file: t.file, write: true }, counting.pool);
    assert.is(counting.readWhole(), 0);
    // The saved entries were checked all at once beside the walk; at most the first page's slice (the newest log,
    // admitted at once: if the check is not in yet) went through the index's batches.
    assert.ok(counting.sentToCheck() <= 1, `${counting.sentToCheck()} sent`);
    assert.equal(indexSnapshot(again.store), before);
    assert.equal(again.warnings, []);
    // Nothing changed: the file is not written again, neither after the cold index nor on stop.
    await again.store.outlined();
    await again.store.save();
    assert.is(statSync(t.file, { bigint: true }).mtimeNs, written);
    again.store.close();
    // Once something changed, it is saved again (and the dead temp file goes).
    const more = await run(t.home, { file: t.file, write: true });
    more.store.sessions.remove([...more.store.sessions.byRel.keys()][0]!);
    await more.store.save();
    more.store.close();
    assert.ok(statSync(t.file, { bigint: true }).mtimeNs !== written);
    assert.not.ok(existsSync(dead));
    // Without the file every log is read whole.
    const cold = countingPool();
    const fresh = await run(t.home, null, cold.pool);
    assert.is(cold.readWhole(), fresh.store.sessions.size);
    fresh.store.close();
  } finally {
    t.cleanup();
  }
});

test('the check of saved entries beside the walk: a grown log or a new companion is not unchanged; a file replaced since it was read is not checked', async () => {
  const t = setUp();
  try {
    const first = await run(t.home, { file: t.file, write: true });
    await first.store.save();
    const root = first.store.tree.root;
    const logs = [...first.store.sessions.byRel.values()].filter((e) => !e.hasConfirmLog);
    first.store.close();
    const saved = await loadIndex(t.file, await summaryFormat(), root);
    assert.ok(saved);
    // Taken by path below, out of the saved order.
    saved.mapPlaces();
    const [grown, companion, ...same] = logs;
    appendFileSync(grown!.path, '\n');
    writeFileSync(`${companion!.path.slice(0, -'.jsonl'.length)}.confirm.jsonl`, '');
    const unchanged = checkSaved(root, saved.source, 0, saved.source.chunks.length);
    assert.ok(unchanged);
    saved.markChecked(unchanged);
    // Each log as a walk now finds it: which companions are beside it.
    const walked = (e: { rel: string; path: string; base: string }) => {
      const stem = e.path.slice(0, -'.jsonl'.length);
      return { rel: e.rel, base: e.base, hasFlowLog: existsSync(`${stem}.flow.jsonl`), hasConfirmLog: existsSync(`${stem}.confirm.jsonl`) };
    };
    assert.is(saved.takeChecked(walked(grown!)), undefined);
    assert.is(saved.takeChecked(walked(companion!)), undefined);
    assert.ok(same.length > 0);
    for (const e of same) assert.ok(saved.takeChecked(walked(e)), e.rel);
    // Taken once: a second take finds nothing.
    assert.is(saved.takeChecked(walked(same[0]!)), undefined);
    // Another console saved over it meanwhile: its entries are checked the slow way, log by log.
    copyFileSync(t.file, `${t.file}.new`);
    renameSync(`${t.file}.new`, t.file);
    assert.is(checkSaved(root, saved.source, 0, saved.source.chunks.length), null);
  } finally {
    t.cleanup();
  }
});

test('logs listed from the saved index before the walk is in: one deleted and a companion come after the check are as the walk finds them', async () => {
  const t = setUp();
  try {
    const entries = await savedRun(t);
    const gone = entries[0]!;
    const bare = entries.find((e) => e !== gone && !e.hasFlowLog)!;
    const donor = entries.find((e) => e.flowLog !== null)!.flowLog!;
    const bareFlow = `${bare.path.slice(0, -'.jsonl'.length)}.flow.jsonl`;
    // The walk waits until the check is in and the saved entries are listed; the files change just before it.
    let store: Store | null = null;
    const checks: Promise<unknown>[] = [];
    const listedFirst = async () => {
      // Both logs changed below, listed (a piece per turn of the event loop, so one may come turns after the other).
      const listed = () => checks.length > 0 && store !== null && store.sessions.byRel.has(gone.rel) && store.sessions.byRel.has(bare.rel);
      for (let i = 0; i < 1_000 && !listed(); i++) await new Promise((r) => setTimeout(r, 5));
      await Promise.all(checks);
    };
    let listedBeforeWalk = false;
    const p: Pool = {
      threads: pool.threads,
      destroy: async () => {},
      run(name, input, lane) {
        if (name === 'newestLogsTask') return Promise.reject(new Error('no head in this test'));
        if (name === 'checkSavedTask') {
          const found = pool.run(name, input, lane);
          checks.push(found);
          return found;
        }
        if (name !== 'walkTreeTask') return pool.run(name, input, lane);
        return listedFirst().then(() => {
          listedBeforeWalk = store!.sessions.byRel.has(gone.rel) && store!.sessions.byRel.has(bare.rel);
          rmSync(gone.path);
          copyFileSync(donor, bareFlow);
          return pool.run(name, input, lane);
        });
      },
    };
    store = new Store({ dataDir: t.home, pool: p, hub: new Hub(), savedIndex: { file: t.file, write: false }, warn: () => {}, listSlice: 1 });
    await store.open();
    await store.warm(30_000);
    await store.searchFiltersMade;
    assert.ok(listedBeforeWalk, 'the saved entries were listed before the walk');
    assert.not.ok(store.sessions.byRel.has(gone.rel));
    assert.ok(store.sessions.byRel.get(bare.rel)!.hasFlowLog);
    await assertAsFresh(store, t.home);
  } finally {
    t.cleanup();
  }
});

test('logs the walk listed before the check came in take their saved summaries as it comes, unless the walk found other companions', async () => {
  const t = setUp();
  try {
    const entries = await savedRun(t);
    // The oldest (not the newest, which is listed at once as the first page).
    const bare = entries.filter((e) => !e.hasFlowLog).at(-1)!;
    const grown = entries.filter((e) => e !== bare).at(-1)!;
    const donor = entries.find((e) => e.flowLog !== null)!.flowLog!;
    // While the console was stopped: a companion came beside one log, and another grew.
    copyFileSync(donor, `${bare.path.slice(0, -'.jsonl'.length)}.flow.jsonl`);
    appendFileSync(grown.path, '\n');
    // The check's answers wait until the walk's logs are listed.
    let store: Store | null = null;
    let walked = false;
    let heldAtCheck = 0;
    const counting = countingPool();
    const p: Pool = {
      threads: pool.threads,
      destroy: async () => {},
      run(name, input, lane) {
        const answer = counting.pool.run(name, input, lane);
        if (name === 'walkTreeTask') void answer.then(() => (walked = true), () => undefined);
        if (name !== 'checkSavedTask') return answer;
        const listedByWalk = async () => {
          await answer;
          for (let i = 0; i < 2_000 && !(walked && store!.sessions.byRel.has(bare.rel)); i++) await new Promise((r) => setTimeout(r, 5));
          heldAtCheck = [...store!.sessions.byRel.values()].filter((e) => e.stamp === null).length;
        };
        return listedByWalk().then(() => answer);
      },
    };
    store = new Store({ dataDir: t.home, pool: p, hub: new Hub(), savedIndex: { file: t.file, write: false }, warn: () => {}, listSlice: 1 });
    await store.open();
    await store.coldIndexDone;
    // As the cold index ends (the sweep would mend a wrong summary later, in its own time).
    assert.ok(store.sessions.byRel.get(bare.rel)!.summary!.has_flow_log);
    await store.warm(30_000);
    await store.searchFiltersMade;
    assert.ok(heldAtCheck > 2, `${heldAtCheck} logs listed by the walk before the check came in`);
    // The two changed logs were read (and perhaps the newest, listed at once as the first page), no other.
    const reads = counting.readWhole() + counting.sentToCheck();
    assert.ok(reads >= 2 && reads <= 3, `${reads} read`);
    assert.ok(store.sessions.byRel.get(bare.rel)!.summary!.has_flow_log);
    await assertAsFresh(store, t.home);
  } finally {
    t.cleanup();
  }
});

test('a restart over thousands of logs, their check split into parts, equals a fresh index after changes in several parts', async () => {
  const cache = tempDir();
  const home = tempDir();
  try {
    const made = await generateHome({ dir: home.dir, sessions: 2_600, seed: 9, big: [] });
    const file = join(cache.dir, 'index.bin');
    const first = await run(home.dir, { file, write: true });
    await first.store.save();
    first.store.close();
    // One log changed in each of the saved index's chunks of a thousand, and one added.
    const logs = made.sessions.map((s) => join(home.dir, s.rel));
    for (const at of [5, 1_300, 2_550]) appendFileSync(logs[at]!, readFileSync(logs[at]!, 'utf8').split('\n').filter(Boolean).at(-1) + '\n');
    copyFileSync(logs[10]!, join(dirname(logs[10]!), '20991231T000000.000Z-added.jsonl'));
    const counting = countingPool();
    const again = await run(home.dir, { file, write: true }, counting.pool);
    assert.is(counting.readWhole(), 1, 'only the added log is read whole');
    assert.is(counting.sentToCheck(), 3, 'only the changed logs are sent with their stamps');
    const fresh = await run(home.dir, null);
    assert.equal(indexSnapshot(again.store), indexSnapshot(fresh.store));
    again.store.close();
    fresh.store.close();
  } finally {
    cache.cleanup();
    home.cleanup();
  }
});

test('a session that gets no search filter (its log is too big for one) does not make every restart save the index again', async () => {
  const t = setUp();
  try {
    const log = join(t.home, 'logs/shop/20260928T020400.548Z-14457.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const big = join(t.home, 'logs/shop/20260929T000000.000Z-big.jsonl');
    writeFileSync(big, `${lines[0]}\n`);
    while (statSync(big).size < 2 * 1024 * 1024) appendFileSync(big, `${lines.slice(1).join('\n')}\n`);
    const first = await run(t.home, { file: t.file, write: true });
    await first.store.searchFiltersMade;
    await first.store.save();
    first.store.close();
    const written = statSync(t.file, { bigint: true }).mtimeNs;
    const again = await run(t.home, { file: t.file, write: true });
    await again.store.searchFiltersMade;
    await again.store.save();
    again.store.close();
    assert.is(statSync(t.file, { bigint: true }).mtimeNs, written);
  } finally {
    t.cleanup();
  }
});

test('logs swapped with twins of the same names, sizes and mtimes are read again (the inode differs)', async () => {
  const t = setUp();
  try {
    twins(t.home);
    const first = await run(t.home, { file: t.file, write: true });
    await first.store.save();
    first.store.close();
    swapDirs(join(t.home, 'logs/twin-a'), join(t.home, 'logs/twin-b'));
    const again = await run(t.home, { file: t.file, write: true }, countingPool().pool);
    const fresh = await run(t.home, null);
    const ids = (s: Store) => [...s.sessions.byRel.values()].filter((e) => e.rel.startsWith('logs/twin-a/')).map((e) => e.summary?.session_id.at(-1));
    assert.equal(ids(fresh.store), ['2', '2', '2']);
    assert.equal(indexSnapshot(again.store), indexSnapshot(fresh.store));
    again.store.close();
    fresh.store.close();
  } finally {
    t.cleanup();
  }
});

test('a session costs at most 1 KB of the saved file', async () => {
  const t = setUp();
  try {
    const { store } = await run(t.home, { file: t.file, write: true });
    await store.save();
    assert.ok(statSync(t.file).size <= 1024 * store.sessions.size, `${statSync(t.file).size} bytes for ${store.sessions.size} sessions`);
    store.close();
  } finally {
    t.cleanup();
  }
});

const damages: [string, (file: string) => void, RegExp][] = [
  ['truncated', (f) => truncateSync(f, statSync(f).size - 10), /truncated/],
  ['corrupt', (f) => {
    const b = readFileSync(f);
    b[b.length - 5]! ^= 0xff;
    writeFileSync(f, b);
  }, /corrupt/],
  ['corrupt in its logs\' paths', (f) => {
    const b = readFileSync(f);
    b[b.indexOf('logs/') + 2]! ^= 0xff;
    writeFileSync(f, b);
  }, /corrupt/],
  ['foreign', (f) => writeFileSync(f, '{"hello": "world"}\n'), /not an index this console wrote/],
  ['of the first layout (its header first)', (f) => writeFileSync(f, Buffer.concat([Buffer.from('engine-console index\n'), readFileSync(f)])), /older version of the console/],
  ['of another summary format', (f) => {
    const b = readFileSync(f);
    const at = b.indexOf('"format":"') + '"format":"'.length;
    b[at] = b[at] === 0x30 ? 0x31 : 0x30;
    writeFileSync(f, b);
  }, /another version of the summaries/],
  ['of another data directory', (f) => {
    const b = readFileSync(f).toString('latin1');
    writeFileSync(f, Buffer.from(b.replace(/"dataDir":"\/(.)/, (_m, c: string) => `"dataDir":"/${c === 'x' ? 'y' : 'x'}`), 'latin1'));
  }, /is the index of/],
];

for (const [what, damage, why] of damages) {
  test(`a saved index ${what} is ignored with one stderr line, and replaced`, async () => {
    const t = setUp();
    try {
      const first = await run(t.home, { file: t.file, write: true });
      await first.store.save();
      const expected = indexSnapshot(first.store);
      first.store.close();
      damage(t.file);
      const counting = countingPool();
      const again = await run(t.home, { file: t.file, write: true }, counting.pool);
      assert.is(again.warnings.length, 1, again.warnings.join('\n'));
      assert.match(again.warnings[0]!, why);
      assert.is(counting.readWhole(), again.store.sessions.size);
      assert.equal(indexSnapshot(again.store), expected);
      await again.store.save();
      again.store.close();
      const loaded = await loadIndex(t.file, await summaryFormat(), t.home);
      assert.is(loaded?.size, again.store.sessions.size);
    } finally {
      t.cleanup();
    }
  });
}

test('the index is saved newest first, as the list has it, then the logs that do not read: a log made while running is not last', async () => {
  const t = setUp();
  try {
    writeFileSync(join(t.home, 'logs/shop/20200101T000000.000Z-1.jsonl'), 'not a header\n');
    const first = await run(t.home, { file: t.file, write: true });
    const newest = first.store.sessions.readable[0]!;
    // As new as the newest (a copy of it), made while the console runs: the index holds it last, the list first or second.
    const copy = join(dirname(newest.path), '20991231T000000.000Z-9.jsonl');
    copyFileSync(newest.path, copy);
    await first.store.sync();
    const readable = first.store.sessions.readable.map((e) => e.rel);
    assert.ok(readable.slice(0, 2).includes(copy.slice(first.store.tree.root.length + 1)));
    await first.store.save();
    const unreadable = first.store.sessions.unreadable().map((e) => e.rel);
    assert.ok(unreadable.length > 0, 'the fixture home has logs that do not read');
    // Every log ever summarized is saved: the list's and those that do not read are all of them.
    const summarized = [...first.store.sessions.byRel.values()].filter((e) => e.stamp !== null).map((e) => e.rel);
    const root = first.store.tree.root;
    first.store.close();
    const saved = (await loadIndex(t.file, await summaryFormat(), root))!;
    const order: string[] = [];
    saved.forUntaken((rel) => order.push(rel));
    assert.equal(order.slice(0, readable.length), readable);
    assert.equal(order.slice(readable.length).sort(), [...unreadable].sort());
    assert.equal([...order].sort(), summarized.sort());
  } finally {
    t.cleanup();
  }
});

test('a read-only console reads a saved index and never writes one', async () => {
  const t = setUp();
  try {
    const ro = await run(t.home, { file: t.file, write: false });
    await ro.store.save();
    ro.store.close();
    assert.not.ok(existsSync(t.file));
    const rw = await run(t.home, { file: t.file, write: true });
    await rw.store.save();
    rw.store.close();
    const stamp = statSync(t.file).mtimeMs;
    const counting = countingPool();
    const again = await run(t.home, { file: t.file, write: false }, counting.pool);
    assert.is(counting.readWhole(), 0);
    await again.store.save();
    again.store.close();
    assert.is(statSync(t.file).mtimeMs, stamp);
  } finally {
    t.cleanup();
  }
});

test.run();
