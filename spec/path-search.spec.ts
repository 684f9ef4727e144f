// Finding programs on PATH as a shell does: every entry that cannot be used is skipped, the next one is
// searched, and neither the start nor a request fails because of one; run as an ordinary user where
// permissions matter (an unreadable directory means nothing to root).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { MetaSchema } from '../shared/meta.ts';
import { ServerListSchema } from '../shared/servers.ts';
import * as v from 'valibot';
import { findOnPath, pathLookup, searchDirs } from '../server/path-search.ts';
import { copyHome, tempDir } from './support/fixtures.ts';
import { launch } from './support/launch.ts';
import { giveTo, ordinaryUser } from './support/process.ts';
import { install, readImage } from './support/image.ts';

const search = suite('PATH search');

/** A tree of PATH entries of every kind, and a directory `good` that holds `prog` (not executable). */
function entries(root: string) {
  const good = join(root, 'good');
  mkdirSync(good);
  writeFileSync(join(good, 'prog'), 'not even a program\n', { mode: 0o644 });
  const notDir = join(root, 'a-file');
  writeFileSync(notDir, '');
  symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
  symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
  const holdsDir = join(root, 'holds-dir');
  mkdirSync(join(holdsDir, 'prog'), { recursive: true });
  return { good, notDir, loop: join(root, 'loop-a'), missing: join(root, 'missing'), holdsDir };
}

const both = async (name: string, path: string) => [await findOnPath(name, path), await pathLookup(path).find(name)];

search('each kind of entry that cannot be used is skipped and the next is searched', async () => {
  const t = tempDir();
  try {
    const e = entries(t.dir);
    const found = join(e.good, 'prog');
    const bad = { empty: '', relative: 'good', missing: e.missing, 'not a directory': e.notDir, loop: e.loop, 'a directory of that name': e.holdsDir };
    for (const [kind, entry] of Object.entries(bad)) {
      assert.equal(await both('prog', [entry, e.good].join(delimiter)), [found, found], kind);
      assert.equal(await both('prog', entry), [null, null], kind);
    }
    // A name under a program's directory, never found through a listing's names.
    assert.equal(await both('../good/prog', e.holdsDir), [null, null]);
  } finally {
    t.cleanup();
  }
});

search('a link to a file is followed; a dangling link is skipped', async () => {
  const t = tempDir();
  try {
    const e = entries(t.dir);
    const links = join(t.dir, 'links');
    mkdirSync(links);
    symlinkSync(join(e.good, 'prog'), join(links, 'prog'));
    symlinkSync(join(t.dir, 'nowhere'), join(links, 'gone'));
    assert.equal(await both('prog', links), [join(links, 'prog'), join(links, 'prog')]);
    assert.equal(await both('gone', [links, e.good].join(delimiter)), [null, null]);
  } finally {
    t.cleanup();
  }
});

search('a program put in a listed directory is found by the next lookup', async () => {
  const t = tempDir();
  try {
    const e = entries(t.dir);
    assert.is(await pathLookup(e.good).find('later'), null);
    writeFileSync(join(e.good, 'later'), '');
    assert.is(await pathLookup(e.good).find('later'), join(e.good, 'later'));
  } finally {
    t.cleanup();
  }
});

search('only absolute, non-empty entries are searched, each once', () => {
  assert.equal(searchDirs(['/a', '', 'rel', './b', '/a', '/c'].join(delimiter)), ['/a', '/c']);
  assert.equal(searchDirs(undefined), []);
});

const user = suite('an unreadable PATH entry, as an ordinary user');

user('the console starts, finds the CLI behind it, and lists servers whose command is behind it', async () => {
  const t = tempDir();
  const as = ordinaryUser();
  const home = copyHome();
  const locked = join(t.dir, 'locked');
  const bin = join(t.dir, 'bin');
  mkdirSync(locked);
  mkdirSync(bin);
  writeFileSync(join(bin, 'engine'), '#!/bin/sh\necho "engine 0.1.0"\n', { mode: 0o755 });
  writeFileSync(join(bin, 'engine-mcp-demo'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(locked, 'engine'), '');
  chmodSync(locked, 0o000);
  chmodSync(t.dir, 0o755);
  if (as !== null) giveTo(home.dir, as);
  // The checkout may sit where that user cannot reach (a 0700 temp folder): run an installed copy instead.
  const app = join(t.dir, 'app');
  install(readImage(), app);
  const l = await launch({ dataDir: home.dir, user: as, launcher: join(app, 'dist/bin/engine-console.js'), env: { PATH: [locked, bin, '/usr/bin', '/bin'].join(delimiter) } });
  try {
    const meta = v.parse(MetaSchema, await (await l.api('/api/meta')).json());
    assert.equal(meta.engine, { path: join(bin, 'engine'), version: 'engine 0.1.0' });
    const res = await l.api('/api/servers');
    assert.is(res.status, 200);
    const list = v.parse(ServerListSchema, await res.json());
    const shop = list.items.find((s) => s.name === 'shop');
    assert.ok(shop, 'the fixture registry lists shop');
    assert.equal(shop.issues.filter((i) => i.includes('PATH')), []);
    assert.not.match(l.stderr(), /EACCES/);
  } finally {
    await l.stop();
    chmodSync(locked, 0o700);
    t.cleanup();
    home.cleanup();
  }
});

search.run();
user.run();
