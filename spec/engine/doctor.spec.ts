import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  binaryHealth,
  checkCompanion,
  checkDir,
  checkKey,
  fromReport,
  KEY_FILE_SET,
  KEY_NOT_SET,
  KEY_SET,
  renderReport,
  setupHealth,
} from '../../server/engine/doctor.ts';
import { tempDir } from '../support/fixtures.ts';
import { endsWith, startsWith } from '../support/assert.ts';

const doctor = suite('doctor');

doctor('the data directory check probes with a file it removes again', () => {
  const t = tempDir();
  try {
    assert.equal(checkDir(t.dir, 4242), [{ level: 'ok', text: `${t.dir} exists and is writable` }]);
    assert.equal(readdirSync(t.dir), [], 'the probe file is gone');
    assert.equal(checkDir(join(t.dir, 'missing'), 1), [
      { level: 'note', text: `${join(t.dir, 'missing')} does not exist yet; \`engine-proxy --record\` creates it` },
    ]);
    writeFileSync(join(t.dir, 'file'), '');
    assert.equal(checkDir(join(t.dir, 'file'), 1), [{ level: 'problem', text: `${join(t.dir, 'file')} is not a directory` }]);
    assert.equal(checkDir(null, 1), [{ level: 'problem', text: 'neither HOME nor USERPROFILE is set, so there is no ~/.engine: pass --data' }]);
  } finally {
    t.cleanup();
  }
});

doctor('a directory the console cannot write in is a problem', () => {
  if (process.getuid?.() === 0) return; // root writes anywhere
  const t = tempDir();
  try {
    chmodSync(t.dir, 0o500);
    const [line] = checkDir(t.dir, 1);
    assert.is(line!.level, 'problem');
    startsWith(line!.text, `${t.dir} is not writable: `, line!.text);
    assert.not.ok(existsSync(join(t.dir, '.engine-doctor-1')));
  } finally {
    chmodSync(t.dir, 0o700);
    t.cleanup();
  }
});

doctor('the key check says whether a key is set, in the CLI\'s words', () => {
  assert.equal(checkKey(true, true), [{ level: 'ok', text: KEY_SET }]);
  assert.equal(checkKey(false, true), [{ level: 'ok', text: KEY_FILE_SET }]);
  assert.equal(checkKey(false, false), [{ level: 'note', text: KEY_NOT_SET }]);
  startsWith(KEY_NOT_SET, 'TYPESAFE_API_KEY is not set. It is optional: recording, `learn --habit-only`');
  endsWith(KEY_NOT_SET, 'and `phase0 --oracle jev` measures Jev on τ²-bench.');
});

doctor('report lines render with the CLI\'s prefixes and become health items', () => {
  const lines = [
    { level: 'item', text: 'a detail first' },
    { level: 'ok', text: 'fine' },
    { level: 'note', text: 'worth knowing' },
    { level: 'problem', text: 'broken' },
    { level: 'item', text: '  a detail ' },
  ] as const;
  assert.is(renderReport(lines), '           a detail first\nok       fine\nnote     worth knowing\nproblem  broken\n             a detail \n');
  assert.equal(fromReport(lines, 'error'), [
    { level: 'note', message: 'a detail first' },
    { level: 'ok', message: 'fine' },
    { level: 'note', message: 'worth knowing' },
    { level: 'error', message: 'broken' },
    { level: 'error', message: 'a detail' },
  ]);
  assert.is(fromReport([{ level: 'problem', text: 'x' }], 'warn')[0]!.level, 'warn');
});

doctor('the console checks its binaries against its own version', () => {
  const what = 'jobs cannot run';
  assert.equal(binaryHealth('engine', what, { path: '/bin/engine', version: 'engine 0.1.0' }, '0.1.0'), {
    level: 'ok',
    message: 'engine 0.1.0 (/bin/engine)',
  });
  assert.equal(binaryHealth('engine', what, { path: '/bin/engine', version: 'engine 0.0.9' }, '0.1.0'), {
    level: 'warn',
    message: "engine 0.0.9 (/bin/engine) is not engine 0.1.0's, as the console is: install them together",
  });
  assert.equal(binaryHealth('engine', what, { path: '/bin/engine', version: null }, '0.1.0'), {
    level: 'warn',
    message: 'engine (/bin/engine) does not answer --version',
  });
  assert.equal(binaryHealth('engine-proxy', 'MCP hosts run it to record sessions and serve flows', null, '0.1.0'), {
    level: 'warn',
    message: 'engine-proxy is not beside the console or on PATH: MCP hosts run it to record sessions and serve flows (docs/install.md)',
  });
});

doctor('the CLI checks its companions: on PATH, beside it, missing, and at another version', () => {
  const base = { name: 'engine-proxy', what: 'MCP hosts run it to record sessions and serve flows', needed: true, onPath: null, beside: null, versionLine: null };
  assert.equal(checkCompanion({ ...base, onPath: '/u/engine-proxy', versionLine: 'engine-proxy 0.1.0' }, '0.1.0'), {
    level: 'ok',
    text: 'engine-proxy 0.1.0 (/u/engine-proxy)',
  });
  assert.equal(checkCompanion({ ...base, beside: '/opt/engine-proxy' }, '0.1.0'), {
    level: 'problem',
    text: 'engine-proxy is at /opt/engine-proxy, which is not on PATH (MCP hosts run it to record sessions and serve flows): add its directory to PATH',
  });
  assert.is(checkCompanion({ ...base, name: 'engine-mcp-demo', needed: false }, '0.1.0').level, 'note');
  assert.is(checkCompanion({ ...base, onPath: '/u/p', versionLine: 'engine-proxy 0.2.0' }, '0.1.0').level, 'problem');
  startsWith(checkCompanion({ ...base, onPath: '/u/p' }, '0.1.0').text, "engine-proxy (/u/p) does not answer `--version` as engine 0.1.0's does.");
});

doctor('the setup part of the health list: directory (or read-only), the two binaries, the key', () => {
  const t = tempDir();
  try {
    const s = { dataDir: t.dir, readOnly: false, pid: 7, consoleVersion: '0.1.0', engine: null, proxy: null, keySet: false, keyFileSet: false };
    assert.equal(setupHealth(s).map((i) => i.level), ['ok', 'warn', 'warn', 'note']);
    const ro = setupHealth({ ...s, readOnly: true, keySet: true });
    assert.equal(ro[0], { level: 'note', message: `read-only: the console changes nothing in ${t.dir}` });
    assert.equal(ro[3], { level: 'ok', message: KEY_SET });
  } finally {
    t.cleanup();
  }
});

doctor.run();
