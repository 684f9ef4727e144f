import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hub } from '../../server/events/hub.ts';
import * as fc from 'fast-check';
import { type FirstWalk, firstWalk, GROUP_START, HAS_CONFIRM_LOG, HAS_FLOW_LOG, logAt, namesInTurns, namesOf } from '../../server/store/first-walk.ts';
import { NAME_SEP, walkTree } from '../../server/store/listing.ts';
import { walkFromRecords, walkRecords } from '../../server/store/walk-answer.ts';
import { check } from '../props/check.ts';
import { Store } from '../../server/store/store.ts';
import { DataTree } from '../../server/store/tree.ts';
import { createPool, type Pool } from '../../server/workers/pool.ts';
import { indexSessionsTask } from '../../server/workers/tasks/sessions.ts';
import { copyHome, repoRoot } from '../support/fixtures.ts';

const test = suite('store: first walk');

const logsOf = (walk: FirstWalk) => {
  const names = namesOf(walk);
  return [...walk.flags].map((_, i) => logAt(walk, names, i).rel);
};

let pool: Pool;
test.before(() => {
  pool = createPool({ entry: join(repoRoot, 'dist/workers/tasks.js') });
});
test.after(async () => {
  await pool.destroy();
});

test('names split a piece per turn are the names split at once, however the pieces fall', async () => {
  const name = fc.stringMatching(/^[a-z0-9.~-]{1,12}$/);
  const dirs = fc.array(fc.array(name, { maxLength: 40 }).map((names) => ({ names: names.join(NAME_SEP) })), { maxLength: 4 });
  await check(
    fc.asyncProperty(dirs, fc.integer({ min: 1, max: 60 }), async (walked, chars) => {
      assert.equal(await namesInTurns({ dirs: walked }, chars), namesOf({ dirs: walked }));
    }),
    300,
  );
});

function aLog(dir: string): string {
  const shop = join(dir, 'logs/shop');
  return join(shop, readdirSync(shop).find((n) => n.endsWith('.jsonl') && !n.includes('.flow.') && !n.includes('.confirm.'))!);
}

test('the walk read back from the records it crosses the spool in equals the walk, a directory per turn; cut bytes are refused', async () => {
  const home = copyHome();
  try {
    // A directory whose names are not ASCII, and one with none.
    mkdirSync(join(home.dir, 'logs/é ü'));
    writeFileSync(join(home.dir, 'logs/é ü/20261127T100000.000Z-7 é.jsonl'), '');
    mkdirSync(join(home.dir, 'logs/empty'));
    const walk = firstWalk(home.dir);
    assert.ok(walk.dirs.length > 3 && walk.dirs.some((d) => d.names === '') && walk.dirs.some((d) => d.names.includes('é')));
    const bytes = Buffer.concat(walkRecords(walk));
    // Turns that pass while it is read: one a directory at least.
    let turns = 0;
    let reading = true;
    const count = (): void => {
      turns++;
      if (reading) setImmediate(count);
    };
    setImmediate(count);
    const back = await walkFromRecords(bytes);
    reading = false;
    assert.equal(back, walk);
    assert.ok(turns >= walk.dirs.length, `${turns} turns for ${walk.dirs.length} directories`);
    for (const cut of [bytes.subarray(0, 3), bytes.subarray(0, bytes.length - 1), Buffer.concat([bytes, Buffer.from([0, 0, 0, 0])])]) {
      const refused = await walkFromRecords(cut).then(() => null, (e: unknown) => e);
      assert.ok(refused instanceof Error, `${cut.length} bytes of ${bytes.length} refused`);
    }
  } finally {
    home.cleanup();
  }
});

test('the walk orders logs by the start time in their names, newest first, and names their companions', () => {
  const home = copyHome();
  const src = aLog(home.dir);
  mkdirSync(join(home.dir, 'logs/zz'), { recursive: true });
  copyFileSync(src, join(home.dir, 'logs/zz/20991231T235959.999Z-1.jsonl'));
  copyFileSync(src, join(home.dir, 'logs/zz/20000101T000000.000Z-1.jsonl'));
  writeFileSync(join(home.dir, 'logs/zz/20991231T235959.999Z-1.flow.jsonl'), '');
  const walk = firstWalk(home.dir);
  const logs = logsOf(walk);
  assert.is(logs[0], 'logs/zz/20991231T235959.999Z-1.jsonl');
  assert.is(logs.at(-1), 'logs/zz/20000101T000000.000Z-1.jsonl');
  assert.is(walk.flags[0], HAS_FLOW_LOG | GROUP_START);
  assert.is(walk.flags.at(-1), GROUP_START);
  // Every session log of the tree, once.
  const tree = new DataTree(home.dir, false);
  const found = tree.open().filter((f) => f.kind === 'session').map((f) => f.rel).sort();
  assert.equal([...logs].sort(), found);
});

test('a log\'s companions are its own .flow.jsonl and .confirm.jsonl, whatever sorts between them', () => {
  const home = copyHome();
  const d = join(home.dir, 'logs/cc');
  mkdirSync(d, { recursive: true });
  const names = ['s.jsonl', 's.confirm.jsonl', 's.b.jsonl', 's.e.flow.jsonl', 's.flow.jsonl.bak', 's.d', 's.flow.jsonl', 't.jsonl', 't.xflow.jsonl', 's-.confirm.jsonl', 's-.jsonl'];
  for (const n of names) writeFileSync(join(d, n), '');
  const walk = firstWalk(home.dir);
  const logs = logsOf(walk);
  const flagsOf = (name: string) => (walk.flags[logs.indexOf(`logs/cc/${name}`)] ?? -1) & ~GROUP_START;
  assert.is(flagsOf('s.jsonl'), HAS_FLOW_LOG | HAS_CONFIRM_LOG);
  assert.is(flagsOf('s.b.jsonl'), 0);
  assert.is(flagsOf('t.jsonl'), 0);
  assert.is(flagsOf('s-.jsonl'), HAS_CONFIRM_LOG);
  // Companions and files that are not logs are not logs.
  assert.equal(logs.filter((l) => l.startsWith('logs/cc/')).sort(), ['logs/cc/s-.jsonl', 'logs/cc/s.b.jsonl', 'logs/cc/s.jsonl', 'logs/cc/t.jsonl', 'logs/cc/t.xflow.jsonl']);
});

test('a key group sits at the place of its newest log, its logs together', () => {
  const home = copyHome();
  const src = aLog(home.dir);
  for (const d of ['logs/a', 'logs/b']) mkdirSync(join(home.dir, d), { recursive: true });
  // Named otherwise than by session id: placed by modification time. "x y" and "x_y" share the key base x_y.
  const at = (name: string, s: number) => {
    copyFileSync(src, join(home.dir, name));
    utimesSync(join(home.dir, name), s, s);
  };
  at('logs/a/x y.jsonl', 4_000_000_000);
  at('logs/b/mid.jsonl', 3_000_000_000);
  at('logs/b/x_y.jsonl', 2_000_000_000);
  const walk = firstWalk(home.dir);
  const logs = logsOf(walk);
  assert.equal(logs.slice(0, 3), ['logs/a/x y.jsonl', 'logs/b/x_y.jsonl', 'logs/b/mid.jsonl']);
  assert.equal([...walk.flags.slice(0, 3)].map((f) => f & GROUP_START), [GROUP_START, 0, GROUP_START]);

  // Named by the same session id in two directories, with another log of the same start between them.
  for (const name of ['logs/a/20991231T235959.999Z-1.jsonl', 'logs/a/20991231T235959.999Z-2.jsonl', 'logs/b/20991231T235959.999Z-1.jsonl']) copyFileSync(src, join(home.dir, name));
  const again = firstWalk(home.dir);
  assert.equal(logsOf(again).slice(0, 3), ['logs/a/20991231T235959.999Z-1.jsonl', 'logs/b/20991231T235959.999Z-1.jsonl', 'logs/a/20991231T235959.999Z-2.jsonl']);
  assert.equal([...again.flags.slice(0, 3)].map((f) => f & GROUP_START), [GROUP_START, 0, GROUP_START]);
});

test('a tree adopted from a walk finds what was written between the walk and the watch', async () => {
  const home = copyHome();
  const walked = walkTree(home.dir);
  const src = aLog(home.dir);
  const late = join(home.dir, 'logs/shop/20991231T000000.000Z-7.jsonl');
  copyFileSync(src, late);
  const tree = new DataTree(home.dir, false);
  await tree.adopt(walked, namesOf({ dirs: walked }));
  const here = new DataTree(home.dir, false);
  const direct = [...here.open()].map((f) => f.rel).sort();
  const changes = tree.refresh({ pollFiles: false });
  assert.equal(changes.added.map((f) => f.rel), ['logs/shop/20991231T000000.000Z-7.jsonl']);
  assert.equal([...tree.allFiles()].map((f) => f.rel).sort(), direct);
  tree.close();
  here.close();
});

test('logs of one key group are listed together, so a key shown at first never changes', async () => {
  const home = copyHome();
  const src = aLog(home.dir);
  for (const d of ['logs/a', 'logs/b']) mkdirSync(join(home.dir, d), { recursive: true });
  // The same stem in two directories: both keys take a hash. With one log listed per slice, the second would
  // come in a later slice (and re-key the first) unless groups are listed together.
  copyFileSync(src, join(home.dir, 'logs/a/20991231T235959.999Z-1.jsonl'));
  copyFileSync(src, join(home.dir, 'logs/b/20991231T235959.999Z-1.jsonl'));
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, listSlice: 1 });
  const done = s.open();
  await s.opened;
  const keys = [...s.sessions.byRel.values()].filter((e) => e.rel.endsWith('20991231T235959.999Z-1.jsonl')).map((e) => e.key);
  assert.is(keys.length, 2);
  for (const k of keys) assert.match(k, /^20991231T235959\.999Z-1~[0-9a-f]+$/);
  await done;
  await s.warm(30_000);
  assert.equal(
    [...s.sessions.byRel.values()].filter((e) => e.rel.endsWith('20991231T235959.999Z-1.jsonl')).map((e) => e.key),
    keys,
  );
  s.close();
});

test('a big log is answered "big" in a batch, and the store still summarizes it alone', async () => {
  const home = copyHome();
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, bigLogBytes: 1 });
  await s.open();
  await s.warm(30_000);
  assert.is(s.progress(), null);
  assert.ok(s.sessions.readable.length > 0);
  assert.is(s.sessions.summarizedCount, s.sessions.size);
  s.close();

  const src = aLog(home.dir);
  const big = join(home.dir, 'logs/shop/20991231T000000.000Z-9.jsonl');
  copyFileSync(src, big);
  const size = statSync(big).size;
  const [r] = indexSessionsTask([{ key: 'k', rel: 'x', path: big, flowLog: null, confirmLog: null, known: null, bigFrom: size }]);
  assert.ok(r);
  assert.not.ok(r.unchanged);
  assert.ok('big' in r, JSON.stringify(r));
  const [small] = indexSessionsTask([{ key: 'k', rel: 'x', path: big, flowLog: null, confirmLog: null, known: null, bigFrom: size + 1 }]);
  assert.ok(small);
  assert.not.ok(small.unchanged);
  assert.ok('result' in small, JSON.stringify(small));
  assert.ok(small.result.ok, JSON.stringify(small.result).slice(0, 200));
});

test('the first page\'s logs are listed before the rest, and every log once, keyed as a one-shot scan keys it', async () => {
  const home = copyHome();
  const src = aLog(home.dir);
  mkdirSync(join(home.dir, 'logs/many'), { recursive: true });
  // More logs than the first look takes (64), all newer than the fixtures' own.
  const names = Array.from({ length: 150 }, (_, i) => `2099${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}0000.${String(i).padStart(3, '0')}Z-${i}.jsonl`);
  for (const name of names) copyFileSync(src, join(home.dir, 'logs/many', name));
  const newest = [...names].sort().reverse();
  const s = new Store({ dataDir: home.dir, pool, hub: new Hub(), watch: false, listSlice: 7 });
  const done = s.open();
  await s.opened;
  // Opened on the first look: the newest logs are in, and nothing older than them.
  const first = [...s.sessions.byRel.keys()].filter((rel) => rel.startsWith('logs/many/')).map((rel) => rel.slice('logs/many/'.length));
  assert.ok(first.length >= 64, `${first.length} logs at first`);
  assert.equal([...first].sort().reverse(), newest.slice(0, first.length));
  await done;
  await s.warm(30_000);
  const all = [...s.sessions.byRel.values()];
  const here = all.filter((e) => e.rel.startsWith('logs/many/'));
  assert.is(here.length, 150);
  for (const e of here) assert.is(e.key, e.rel.slice('logs/many/'.length, -'.jsonl'.length));
  assert.is(new Set(all.map((e) => e.key)).size, all.length);
  assert.is(s.sessions.summarizedCount, all.length);
  s.close();
});

test.run();
