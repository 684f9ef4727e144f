import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PathError, resolveRequestPath, shown } from '../../server/data/paths.ts';
import { tempDir } from '../support/fixtures.ts';

const paths = suite('paths');
const data = tempDir();
const home = tempDir();
const outside = tempDir();
const dataDir = realpathSync(data.dir);
const homeDir = realpathSync(home.dir);
mkdirSync(join(dataDir, 'logs/shop'), { recursive: true });
symlinkSync(outside.dir, join(dataDir, 'escape'));
symlinkSync(join(dataDir, 'nowhere'), join(dataDir, 'dangling'));
const ctx = { dataDir, home: homeDir };

const refused = (input: string, message: RegExp) => {
  try {
    resolveRequestPath(input, ctx);
  } catch (err) {
    assert.instance(err, PathError);
    assert.match((err as Error).message, message);
    return;
  }
  assert.unreachable(`${input} was accepted`);
};

paths('a relative path resolves under the data directory, existing or not', () => {
  assert.is(resolveRequestPath('logs/shop', ctx), join(dataDir, 'logs/shop'));
  assert.is(resolveRequestPath('new/out.flow.json', ctx), join(dataDir, 'new/out.flow.json'));
  assert.is(resolveRequestPath('logs/./shop/../shop', ctx), join(dataDir, 'logs/shop'));
});

paths('~/ resolves under home; other ~ forms are refused', () => {
  assert.is(resolveRequestPath('~/x/y', ctx), join(homeDir, 'x/y'));
  assert.is(resolveRequestPath('~', ctx), homeDir);
  refused('~root/x', /only ~\/ \(this user's home directory\) is expanded/);
  assert.throws(() => resolveRequestPath('~/x', { dataDir, home: null }), /there is no home directory/);
});

paths('.. cannot climb out, however it is spelled', () => {
  refused('..', /\.\. climbs out of/);
  refused('logs/../../etc/passwd', /\.\. climbs out of/);
  refused('~/../../etc', /\.\. climbs out of/);
  refused('/../../..', /climbs out of the root/);
});

paths('an absolute path must be inside the data directory', () => {
  assert.is(resolveRequestPath(join(dataDir, 'logs'), ctx), join(dataDir, 'logs'));
  refused('/etc/passwd', /is outside the data directory/);
  refused(`${dataDir}-other/x`, /is outside the data directory/);
});

paths('no symbolic link may lead out, and a dangling one is refused', () => {
  refused('escape/x', /a symbolic link leads out of/);
  refused('escape', /a symbolic link leads out of/);
  refused('dangling', /a symbolic link leads nowhere/);
});

paths('empty and NUL paths are refused', () => {
  refused('  ', /the path is empty/);
  refused('a\0b', /NUL/);
});

paths('shown paths are relative under the data directory and ~/ under home', () => {
  assert.is(shown(join(dataDir, 'logs/shop'), ctx), 'logs/shop');
  assert.is(shown(join(homeDir, 'a'), ctx), '~/a');
  assert.is(shown('/opt/x', ctx), '/opt/x');
});

paths.after(() => {
  data.cleanup();
  home.cleanup();
  outside.cleanup();
});
paths.run();
