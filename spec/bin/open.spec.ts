// --open as a local attacker sees it: the browser is handed a private file (0600 in a 0700 directory) that
// leads to the one-time link; neither the code nor the token is in any process's arguments; the code makes a
// sign-in (not the token) in the cookie, once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/fixtures.ts';
import { launch } from '../support/launch.ts';

interface BrowserReport {
  argv: string[];
  page: string | null;
  fileMode: number | null;
  dirMode: number | null;
  carriers: string[];
}

/** A Unix socket that resolves with the first report the recording browser sends. */
function reportSocket(path: string): Promise<BrowserReport> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (text += c));
      socket.on('end', () => {
        server.close();
        resolve(JSON.parse(text) as BrowserReport);
      });
    });
    server.on('error', reject);
    server.listen(path);
  });
}

const open = suite('--open');

open('the browser gets a private file, no process carries the code or the token, and the code signs in once', async () => {
  const t = tempDir();
  const browser = join(t.dir, 'browser');
  const socket = join(t.dir, 'report.sock');
  writeFileSync(browser, `#!${process.execPath}\nimport(${JSON.stringify(join(fileURLToPath(new URL('.', import.meta.url)), '../support/recording-browser.mjs'))});\n`, { mode: 0o755 });
  const reported = reportSocket(socket);
  const token = randomBytes(16).toString('hex');
  const l = await launch({ token, args: ['--open'], env: { BROWSER: browser, RECORDING_BROWSER_SOCKET: socket } });
  try {
    const report = await reported;
    assert.equal(report.carriers, [], 'a process carries the code or the token in its arguments');
    assert.is(report.argv.length, 1, report.argv.join(' '));
    assert.match(report.argv[0]!, /^file:\/\/\/.+\.html$/);
    assert.not.match(report.argv[0]!, /code=|token=/);
    assert.is(report.fileMode, 0o600);
    assert.is(report.dirMode, 0o700);
    const link = new RegExp(`http://127\\.0\\.0\\.1:${l.port}/\\?code=[0-9a-f]{32}`).exec(report.page ?? '')?.[0];
    assert.ok(link, report.page ?? '');

    const first = await fetch(link!, { redirect: 'manual' });
    assert.is(first.status, 303);
    assert.is(first.headers.get('location'), '/');
    const cookie = first.headers.getSetCookie();
    assert.is(cookie.length, 2);
    assert.not.ok(cookie.some((c) => c.includes(token)), 'the cookie carries the token');
    const pair = cookie[0]!.split(';')[0]!;
    assert.is((await fetch(`${l.url}/api/meta`, { headers: { Cookie: pair } })).status, 200);

    const second = await fetch(link!, { redirect: 'manual' });
    assert.is(second.headers.get('location'), '/?sign_in=used');
    assert.equal(second.headers.getSetCookie(), []);
  } finally {
    await l.stop();
  }
  assert.not.ok(existsSync(fileURLToPath((await reported).argv[0]!)), 'the page outlives the console');
  t.cleanup();
});

open.run();
