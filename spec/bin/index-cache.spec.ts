// Where the launcher keeps the session index between runs: the option, then the environment, then the XDG
// cache directory, then ~/.cache; `off` keeps none; never inside the data directory; read-only makes none.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { savedIndexOf } from '../../bin/index-cache.ts';
import { FatalError, parseOptions } from '../../bin/options.ts';
import { savedIndexPath } from '../../server/store/persisted-index.ts';
import { tempDir } from '../support/fixtures.ts';

const test = suite('launcher: the index cache');

function place(argv: string[], env: NodeJS.ProcessEnv, home: string | null, dataDir: string) {
  const warnings: string[] = [];
  return { saved: savedIndexOf(parseOptions(argv, env), env, home, dataDir, (l) => warnings.push(l)), warnings };
}

test('the option, then ENGINE_CONSOLE_INDEX_CACHE, then $XDG_CACHE_HOME, then ~/.cache; made 0700', () => {
  const t = tempDir();
  try {
    const data = join(t.dir, 'data');
    mkdirSync(data);
    assert.equal(place(['--index-cache', join(t.dir, 'opt')], { ENGINE_CONSOLE_INDEX_CACHE: join(t.dir, 'env') }, t.dir, data).saved, { file: savedIndexPath(join(t.dir, 'opt'), data), write: true });
    assert.equal(place([], { ENGINE_CONSOLE_INDEX_CACHE: join(t.dir, 'env') }, t.dir, data).saved?.file, savedIndexPath(join(t.dir, 'env'), data));
    assert.equal(place([], { XDG_CACHE_HOME: join(t.dir, 'xdg') }, t.dir, data).saved?.file, savedIndexPath(join(t.dir, 'xdg/engine-console'), data));
    assert.equal(place([], {}, t.dir, data).saved?.file, savedIndexPath(join(t.dir, '.cache/engine-console'), data));
    assert.is(statSync(join(t.dir, '.cache/engine-console')).mode & 0o777, 0o700);
  } finally {
    t.cleanup();
  }
});

test('off keeps none; inside the data directory is refused; read-only makes no directory', () => {
  const t = tempDir();
  try {
    const data = join(t.dir, 'data');
    mkdirSync(data);
    assert.is(place(['--index-cache', 'off'], {}, t.dir, data).saved, null);
    assert.is(place([], { ENGINE_CONSOLE_INDEX_CACHE: 'off' }, t.dir, data).saved, null);
    for (const inside of [data, join(data, 'cache')]) {
      assert.throws(() => place(['--index-cache', inside], {}, t.dir, data), (e: unknown) => e instanceof FatalError && /inside the data directory/.test(e.message));
    }
    assert.is(place(['--read-only', '--index-cache', join(t.dir, 'ro')], {}, t.dir, data).saved, null);
    assert.not.ok(existsSync(join(t.dir, 'ro')));
    mkdirSync(join(t.dir, 'ro'));
    assert.equal(place(['--read-only', '--index-cache', join(t.dir, 'ro')], {}, t.dir, data).saved, { file: savedIndexPath(join(t.dir, 'ro'), data), write: false });
  } finally {
    t.cleanup();
  }
});

test('a cache directory other users may write to is not used, with one line saying why', () => {
  const t = tempDir();
  try {
    const data = join(t.dir, 'data');
    mkdirSync(data);
    const open = join(t.dir, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const r = place(['--index-cache', open], {}, t.dir, data);
    assert.is(r.saved, null);
    assert.is(r.warnings.length, 1);
    assert.match(r.warnings[0]!, /other users/);
  } finally {
    t.cleanup();
  }
});

test.run();
