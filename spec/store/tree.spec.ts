import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesOf } from '../../server/store/first-walk.ts';
import { walkTree } from '../../server/store/listing.ts';
import { DataTree, noticesIn } from '../../server/store/tree.ts';
import { copyHome } from '../support/fixtures.ts';

const test = suite('store: data tree');

test('files are found by path, made when asked, and follow the directories that come and go', async () => {
  const home = copyHome();
  const tree = new DataTree(home.dir, false);
  await tree.adopt(walkTree(home.dir), namesOf({ dirs: walkTree(home.dir) }));
  const all = [...tree.allFiles()];
  const log = all.find((f) => f.kind === 'session');
  assert.ok(log, 'the fixtures hold a session log');
  assert.ok(tree.hasFile(log.rel));
  assert.equal(tree.fileAt(log.rel), log);
  assert.is(tree.hasFile('logs'), false, 'a directory is not a file');
  assert.is(tree.hasFile(`${log.rel}.missing`), false);
  assert.is(tree.fileAt('nowhere/at/all.jsonl'), null);
  assert.ok(all.some((f) => f.kind === 'flow' && !f.rel.includes('/')), 'files at the top level are kept too');
  assert.equal(tree.flowFiles(), all.filter((f) => f.kind === 'flow'));
  assert.ok(tree.flowFiles().length > 0);

  mkdirSync(join(home.dir, 'logs/late'));
  writeFileSync(join(home.dir, 'logs/late/one.jsonl'), '');
  let changes = tree.refresh({ checkDirs: true, pollFiles: false });
  assert.equal(changes.added.map((f) => f.rel), ['logs/late/one.jsonl']);
  assert.equal(tree.fileAt('logs/late/one.jsonl'), { rel: 'logs/late/one.jsonl', name: 'one.jsonl', kind: 'session' });

  rmSync(join(home.dir, 'logs/late'), { recursive: true });
  changes = tree.refresh({ checkDirs: true, pollFiles: false });
  assert.equal(changes.removed.map((f) => f.rel), ['logs/late/one.jsonl']);
  assert.is(tree.hasFile('logs/late/one.jsonl'), false);
  assert.equal([...tree.allFiles()].map((f) => f.rel).sort(), all.map((f) => f.rel).sort());
  tree.close();
});

/** Until the watch has delivered what was done (notifications come on a later turn of the loop). */
async function delivered(tree: DataTree): Promise<void> {
  for (let i = 0; i < 100 && !tree.pending; i++) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 30));
  await new Promise((r) => setImmediate(r));
}

const filesOf = (tree: DataTree) => [...tree.allFiles()].map((f) => `${f.rel} ${f.kind}`).sort();

/** A copy of the fixtures' data directory, adopted by a watching tree. */
async function watchedTree(): Promise<{ dir: string; tree: DataTree }> {
  const { dir } = copyHome();
  const tree = new DataTree(dir);
  await tree.adopt(walkTree(dir), namesOf({ dirs: walkTree(dir) }));
  return { dir, tree };
}

function freshTree(dir: string): string[] {
  const t = new DataTree(dir, false);
  t.open();
  const files = filesOf(t);
  t.close();
  return files;
}

test('entries notified by name are looked at alone, and the tree still equals a fresh walk', async () => {
  const { dir, tree } = await watchedTree();
  const shop = join(dir, 'logs/shop');
  mkdirSync(shop, { recursive: true });
  tree.refresh({ checkDirs: true, pollFiles: false });
  await delivered(tree);
  tree.refresh();
  const before = tree.relisted;

  // Files come and go, one is renamed, a link in reach comes, a link out of reach is not kept, a directory
  // comes with a file in it, the console's own directory is not kept.
  writeFileSync(join(shop, 'new-one.jsonl'), '{}\n');
  writeFileSync(join(shop, 'new-two.flow.jsonl'), '');
  writeFileSync(join(shop, 'gone.jsonl'), '');
  await delivered(tree);
  let changes = tree.refresh();
  assert.equal(changes.added.map((f) => f.rel).sort(), ['logs/shop/gone.jsonl', 'logs/shop/new-one.jsonl', 'logs/shop/new-two.flow.jsonl']);
  unlinkSync(join(shop, 'gone.jsonl'));
  renameSync(join(shop, 'new-one.jsonl'), join(shop, 'renamed.jsonl'));
  mkdirSync(join(shop, 'sub'));
  await delivered(tree);
  changes = tree.refresh();
  assert.equal(changes.removed.map((f) => f.rel).sort(), ['logs/shop/gone.jsonl', 'logs/shop/new-one.jsonl']);
  assert.equal(changes.added.map((f) => f.rel).sort(), ['logs/shop/renamed.jsonl']);
  assert.equal(filesOf(tree), freshTree(dir));
  assert.is(tree.relisted, before, 'no directory was listed again');

  // The notified directory's stamp was taken as seen: a request's check of every stamp lists nothing again.
  tree.refresh({ checkDirs: true, pollFiles: false });
  assert.is(tree.relisted, before);

  // A link that stays inside is kept, one that leaves is not (a directory with links is listed again on
  // every refresh, as links can change without their directory changing).
  symlinkSync(join(shop, 'renamed.jsonl'), join(shop, 'linked.jsonl'));
  symlinkSync('/etc/hostname', join(shop, 'outside.jsonl'));
  writeFileSync(join(shop, 'sub/inner.jsonl'), '');
  await delivered(tree);
  tree.refresh();
  assert.ok(tree.hasFile('logs/shop/linked.jsonl'));
  assert.is(tree.hasFile('logs/shop/outside.jsonl'), false);
  assert.is(tree.hasFile('logs/shop/sub/inner.jsonl'), false, 'beyond the scan\'s three levels');
  assert.equal(filesOf(tree), freshTree(dir));

  // A write whose notification is not delivered yet: the directory's stamp shows it, so it is listed again.
  unlinkSync(join(shop, 'linked.jsonl'));
  unlinkSync(join(shop, 'outside.jsonl'));
  await delivered(tree);
  tree.refresh();
  const own = tree.relisted;
  writeFileSync(join(shop, 'own.jsonl'), '');
  changes = tree.refresh({ checkDirs: true, pollFiles: false });
  assert.equal(changes.added.map((f) => f.rel), ['logs/shop/own.jsonl']);
  assert.ok(tree.relisted > own);
  await delivered(tree);
  tree.refresh();
  assert.equal(filesOf(tree), freshTree(dir));
  tree.close();
});

test('a write made after other notices came in is seen once its own notice is let in', async () => {
  const { dir, tree } = await watchedTree();
  const shop = join(dir, 'logs/shop');
  for (let round = 0; round < 5; round++) {
    writeFileSync(join(shop, `noticed-${round}.jsonl`), '');
    await delivered(tree);
    // That notice is in, the next write's is not: the tree takes the directory's stamp (which shows both) as
    // seen once it has looked at the names it has, so the next write's notice must be let in first.
    writeFileSync(join(shop, `just-now-${round}.jsonl`), '');
    await noticesIn();
    const changes = tree.refresh({ checkDirs: true, pollFiles: false });
    assert.equal(changes.added.map((f) => f.rel).sort(), [`logs/shop/just-now-${round}.jsonl`, `logs/shop/noticed-${round}.jsonl`]);
  }
  assert.equal(filesOf(tree), freshTree(dir));
  tree.close();
});

test('a burst of notifications large enough to overflow the kernel\'s queue lists every directory again', async () => {
  const { dir, tree } = await watchedTree();
  const burst = join(dir, 'logs/burst');
  mkdirSync(burst, { recursive: true });
  await delivered(tree);
  tree.refresh();
  const before = tree.relisted;
  for (let i = 0; i < 1_100; i++) writeFileSync(join(burst, `b${i}.jsonl`), '');
  await delivered(tree);
  const changes = tree.refresh();
  assert.is(changes.added.length, 1_100);
  assert.ok(tree.relisted - before >= 2, 'every directory listed again');
  assert.equal(filesOf(tree), freshTree(dir));
  tree.close();
});

test('a file made in a new directory right after the directory is listed is still found', async () => {
  const home = copyHome();
  // The file arrives between the listing of the new directory and anything after it.
  class LateFileTree extends DataTree {
    protected override list(path: string) {
      const listing = super.list(path);
      if (path.endsWith('/late')) writeFileSync(join(path, 'after-listing.jsonl'), '');
      return listing;
    }
  }
  const tree = new LateFileTree(home.dir, true);
  try {
    await tree.adopt(walkTree(home.dir), namesOf({ dirs: walkTree(home.dir) }));
    mkdirSync(join(home.dir, 'logs/late'));
    let found = false;
    for (let i = 0; i < 50 && !found; i++) {
      await noticesIn();
      found = tree.refresh({ checkDirs: true, pollFiles: false }).added.some((f) => f.rel === 'logs/late/after-listing.jsonl');
      if (!found) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(found, 'the file made after the listing is found by a later refresh');
  } finally {
    tree.close();
    home.cleanup();
  }
});

test.run();
