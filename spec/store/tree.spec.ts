import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesOf } from '../../server/store/first-walk.ts';
import { walkTree } from '../../server/store/listing.ts';
import { DataTree } from '../../server/store/tree.ts';
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
  assert.equal([...tree.allFiles('flow')], all.filter((f) => f.kind === 'flow'));

  mkdirSync(join(home.dir, 'logs/late'));
  writeFileSync(join(home.dir, 'logs/late/one.jsonl'), '');
  let changes = tree.refresh(true, false);
  assert.equal(changes.added.map((f) => f.rel), ['logs/late/one.jsonl']);
  assert.equal(tree.fileAt('logs/late/one.jsonl'), { rel: 'logs/late/one.jsonl', name: 'one.jsonl', kind: 'session' });

  rmSync(join(home.dir, 'logs/late'), { recursive: true });
  changes = tree.refresh(true, false);
  assert.equal(changes.removed.map((f) => f.rel), ['logs/late/one.jsonl']);
  assert.is(tree.hasFile('logs/late/one.jsonl'), false);
  assert.equal([...tree.allFiles()].map((f) => f.rel).sort(), all.map((f) => f.rel).sort());
  tree.close();
});

test.run();
