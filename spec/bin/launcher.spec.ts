// The launcher as a user runs it: options and their refusals, the two stderr lines (a given token never
// printed), healthcheck's exit codes, and a clean stop on SIGTERM.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { formatAddress, isLoopback, parseListen, parseOptions, UsageError } from '../../bin/options.ts';
import { cleanEnv, launch, launcherPath } from '../support/launch.ts';
import { tempDir } from '../support/fixtures.ts';

const options = suite('launcher options');

options('listen addresses are IP literals with a port', () => {
  assert.equal(parseListen('127.0.0.1:7878'), { host: '127.0.0.1', port: 7878 });
  assert.equal(parseListen('[::1]:0'), { host: '::1', port: 0 });
  assert.throws(() => parseListen('localhost:7878'), /not an IP address/);
  assert.throws(() => parseListen('127.0.0.1'), /IP:PORT/);
  assert.throws(() => parseListen('1.2.3.4:99999'), /out of range/);
  assert.is(formatAddress({ host: '::1', port: 8 }), '[::1]:8');
});

options('loopback is 127.0.0.0/8 and ::1 only', () => {
  assert.ok(isLoopback('127.0.0.1'));
  assert.ok(isLoopback('127.1.2.3'));
  assert.ok(isLoopback('::1'));
  assert.not.ok(isLoopback('0.0.0.0'));
  assert.not.ok(isLoopback('::'));
  assert.not.ok(isLoopback('192.168.1.1'));
});

options('defaults come from the environment, flags win', () => {
  const o = parseOptions([], { ENGINE_CONSOLE_LISTEN: ' 0.0.0.0:8080 ' });
  assert.equal(o.listen, { host: '0.0.0.0', port: 8080 });
  assert.equal(parseOptions(['--listen', '127.0.0.1:1'], { ENGINE_CONSOLE_LISTEN: '0.0.0.0:8080' }).listen, { host: '127.0.0.1', port: 1 });
  assert.equal(parseOptions([], {}).listen, { host: '127.0.0.1', port: 7878 });
});

options('--token with --no-auth, unknown flags and bad addresses are usage errors', () => {
  assert.throws(() => parseOptions(['--token', 'x', '--no-auth'], {}), (e: unknown) => e instanceof UsageError);
  assert.throws(() => parseOptions(['--bogus'], {}), (e: unknown) => e instanceof UsageError);
  assert.throws(() => parseOptions(['--listen', 'nope'], {}), (e: unknown) => e instanceof UsageError);
  assert.throws(() => parseOptions(['healthcheck', '--data', 'x'], {}), (e: unknown) => e instanceof UsageError);
  assert.is(parseOptions(['healthcheck', '--listen', '127.0.0.1:9'], {}).command, 'healthcheck');
});

options.run();

const launcher = suite('launcher');

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [launcherPath, ...args], { env: { ...cleanEnv(), ...env }, encoding: 'utf8', timeout: 20_000 });
}

launcher('--no-auth is refused on a non-loopback address, with a fix in the message', () => {
  const r = run(['--no-auth', '--listen', '0.0.0.0:0', '--data', tempDir().dir]);
  assert.is(r.status, 1);
  assert.is(r.stderr.trim(), 'engine-console: --no-auth is refused on 0.0.0.0:0: without a token, listen on a loopback address (127.0.0.1 or [::1])');
});

launcher('a bad option is one clear line and exit 2', () => {
  const r = run(['--listen', 'localhost:1']);
  assert.is(r.status, 2);
  assert.match(r.stderr, /--listen "localhost:1": localhost is not an IP address/);
});

launcher('a bad ENGINE_CONSOLE_LISTEN fails with exit 1', () => {
  const r = run(['--data', tempDir().dir], { ENGINE_CONSOLE_LISTEN: 'nope' });
  assert.is(r.status, 1);
  assert.match(r.stderr, /^engine-console: ENGINE_CONSOLE_LISTEN="nope" is not an address/);
});

launcher('--read-only refuses a missing data directory and creates nothing', () => {
  const t = tempDir();
  const missing = join(t.dir, 'nope');
  const r = run(['--read-only', '--data', missing, '--listen', '127.0.0.1:0']);
  assert.is(r.status, 1);
  assert.match(r.stderr, /does not exist \(and --read-only creates nothing\)/);
  assert.not.ok(existsSync(missing));
  t.cleanup();
});

launcher('a port already in use is one clear line and exit 1', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as { port: number }).port;
  const r = run(['--data', tempDir().dir, '--listen', `127.0.0.1:${port}`], { ENGINE_CONSOLE_TOKEN: 't' });
  blocker.close();
  assert.is(r.status, 1);
  assert.is(r.stderr.trim().split('\n').at(-1), `engine-console: listening on 127.0.0.1:${port}: the address is already in use`);
});

launcher('a missing data directory is created, and a generated token is printed in the URL', async () => {
  const t = tempDir();
  const dir = join(t.dir, 'new', 'home');
  const l = await launch({ dataDir: dir, token: null, args: [] }).catch((e: unknown) => {
    throw e;
  });
  await l.stop();
  assert.ok(existsSync(dir));
  // Now with a generated token: spawn directly without ENGINE_CONSOLE_TOKEN.
  const child = spawn(process.execPath, [launcherPath, '--data', dir, '--listen', '127.0.0.1:0'], { env: cleanEnv() });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  await new Promise<void>((resolve) => {
    const check = () => /\?token=/.test(err) && resolve();
    child.stderr.on('data', check);
  });
  const m = /engine-console: open http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)\n/.exec(err);
  assert.ok(m, err);
  assert.is(m![2]!.length, 64);
  const res = await fetch(`http://127.0.0.1:${m![1]}/api/meta`, { headers: { Authorization: `Bearer ${m![2]}` } });
  assert.is(res.status, 200);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  t.cleanup();
});

launcher('a given token is never printed; the lines name the data directory and the address', async () => {
  const l = await launch({ token: 'sekrit-token-value' });
  const err = l.stderr();
  assert.not.match(err, 'sekrit-token-value');
  assert.match(err, new RegExp(`engine-console: ${l.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on 127\\.0\\.0\\.1:${l.port}\\n`));
  assert.match(err, /engine-console: open http:\/\/127\.0\.0\.1:\d+\/\?token=<your token> \(the token you gave; it is not printed\)/);
  const code = await l.stop();
  assert.is(code, 0);
  assert.match(l.stderr(), /engine-console: stopped\n$/);
});

launcher('a second Ctrl-C stops at once, while the first still waits for what is in flight', async () => {
  const l = await launch();
  // A request whose body is still coming: the first stop waits for it (up to a second) before the server closes.
  const socket = connect(l.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.on('error', () => undefined);
  socket.write(`POST /api/jobs/preview HTTP/1.1\r\nHost: 127.0.0.1:${l.port}\r\nAuthorization: Bearer ${l.token}\r\nX-Engine-Console: 1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"kind":`);
  await new Promise((r) => setTimeout(r, 100));
  const exited = new Promise<number | null>((r) => l.child.once('exit', (code) => r(code)));
  l.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 200));
  assert.is(l.child.exitCode, null, 'the first stop is still waiting');
  l.child.kill('SIGINT');
  // 130, not the clean stop's 0: it did not wait for the request.
  assert.is(await exited, 130);
  assert.match(l.stderr(), /engine-console: stopped at once: what changed since the index was last saved is read again at the next start\n$/);
  socket.destroy();
  await l.stop();
});

launcher('warnings come after the two start-up lines: the first names the data directory, the second is the URL', async () => {
  // No engine CLI beside the console or on PATH: a warning, which must not come first.
  const l = await launch({ env: { PATH: dirname(process.execPath) } });
  const warning = 'engine-console: the engine CLI is not beside the console or on PATH, so jobs cannot run (pass --engine PATH)';
  // The warning is written right after the start-up lines, but may reach the pipe's reader a read later.
  const lines = (await l.stderrWith(warning)).split('\n');
  assert.is(lines[0], `engine-console: ${l.dataDir} on 127.0.0.1:${l.port}`);
  assert.is(lines[1], `engine-console: open http://127.0.0.1:${l.port}/?token=<your token> (the token you gave; it is not printed)`);
  assert.equal(lines.slice(2).filter((line) => line === warning), [warning]);
  await l.stop();
});

launcher('healthcheck exits 0 when the console answers and 1 when it does not', async () => {
  const l = await launch();
  const ok = run(['healthcheck', '--listen', `127.0.0.1:${l.port}`]);
  assert.is(ok.status, 0, ok.stderr);
  await l.stop();
  const down = run(['healthcheck', '--listen', `127.0.0.1:${l.port}`]);
  assert.is(down.status, 1);
  assert.match(down.stderr, /^engine-console: http:\/\/127\.0\.0\.1:\d+\/api\/health: /);
});

launcher.run();
