// What the Dockerfile's image does, without a container engine: its final stage is read from the Dockerfile
// (the paths it copies, its environment, its workdir, its entrypoint and healthcheck), the build's output
// and the production dependencies (the lock file's, as `npm prune --omit=dev` keeps them) are copied to a
// temp app directory, and the console is started there as an ordinary user with only that environment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { HealthSchema } from '../../shared/meta.ts';
import { tempDir } from '../support/fixtures.ts';
import { install, readImage, under } from '../support/image.ts';
import { freePort, giveTo, ordinaryUser } from '../support/process.ts';

const container = suite('the container image, run without a container engine');

container('installed as the image is, as an ordinary user, it answers /api/health and its healthcheck', async () => {
  const image = readImage();
  assert.is(image.workdir, '/app');
  assert.ok(image.copies.length > 0 && image.entrypoint.length > 0 && image.healthcheck.length > 0, 'the Dockerfile names what it copies and runs');
  const t = tempDir('engine-image-');
  const user = ordinaryUser();
  const app = join(t.dir, 'app');
  const data = join(t.dir, 'data');
  mkdirSync(data);
  install(image, app);
  chmodSync(t.dir, 0o755);
  if (user !== null) giveTo(data, user);
  const port = await freePort();
  const [host] = (image.env.ENGINE_CONSOLE_LISTEN ?? '').split(':');
  // The image's environment, with its paths here and a free port (the image's own may be in use).
  const env: Record<string, string> = {
    ...image.env,
    ENGINE_HOME: data,
    ENGINE_CONSOLE_LISTEN: `${host}:${port}`,
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: data,
  };
  const run = { cwd: app, env, ...(user ?? {}) };
  const [node, ...entry] = under(image.entrypoint, image.workdir, app);
  const [checkNode, ...check] = under(image.healthcheck, image.workdir, app);
  assert.is(node, 'node');
  assert.is(checkNode, 'node');
  const child = spawn(process.execPath, entry, { ...run, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8');
  const started = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (c: string) => {
      err += c;
      if (/engine-console: open /.test(err)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the console exited (${code}) before it started:\n${err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const healthcheck = () => spawnSync(process.execPath, check, { ...run, encoding: 'utf8', timeout: 20_000 }).status;
  try {
    await started;
    assert.ok(err.includes(`${data} on ${host}:${port}`), err);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    assert.is(res.status, 200);
    assert.is(v.parse(HealthSchema, await res.json()).ok, true);
    assert.is(healthcheck(), 0, 'the healthcheck passes while the console is up');
    child.kill('SIGTERM');
    assert.is(await exited, 0, err);
    assert.is(healthcheck(), 1, 'the healthcheck fails once the console stopped');
  } finally {
    child.kill('SIGKILL');
    t.cleanup();
  }
});

container.run();
