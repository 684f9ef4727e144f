// What the Dockerfile's image does, without a container engine: its final stage is read from the Dockerfile
// (the paths it copies, its environment, its workdir, its entrypoint and healthcheck), the build's output
// and the production dependencies (the lock file's, as `npm prune --omit=dev` keeps them) are copied to a
// temp app directory, and the console is started there as an ordinary user with only that environment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as v from 'valibot';
import { HealthSchema } from '../../shared/meta.ts';
import { repoRoot, tempDir } from '../support/fixtures.ts';
import { freePort, giveTo, ordinaryUser } from '../support/process.ts';

/** The final stage of the Dockerfile, as far as running the image goes. */
interface Image {
  env: Record<string, string>;
  workdir: string;
  /** [from in the build stage, to under workdir]. */
  copies: [string, string][];
  entrypoint: string[];
  healthcheck: string[];
}

function readImage(): Image {
  const text = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages = text.split(/^FROM /m);
  const lines = (stages.at(-1) ?? '').split('\n').map((l) => l.trim());
  const image: Image = { env: {}, workdir: '/', copies: [], entrypoint: [], healthcheck: [] };
  const json = (s: string) => v.parse(v.array(v.string()), JSON.parse(s));
  for (const line of lines) {
    const [word, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (word === 'ENV') {
      for (const pair of rest) {
        const eq = pair.indexOf('=');
        if (eq > 0) image.env[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
    } else if (word === 'WORKDIR') image.workdir = args;
    else if (word === 'COPY' && rest[0] === '--from=build') image.copies.push([rest[1]!, rest[2]!]);
    else if (word === 'ENTRYPOINT') image.entrypoint = json(args);
    else if (word === 'HEALTHCHECK') image.healthcheck = json(args.slice(args.indexOf('CMD') + 3).trim());
  }
  return image;
}

/** The lock file's packages that `npm prune --omit=dev` keeps (optional ones only where installed). */
function productionPackages(): string[] {
  const lock = v.parse(
    v.object({ packages: v.record(v.string(), v.object({ dev: v.optional(v.boolean()), optional: v.optional(v.boolean()) })) }),
    JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')),
  );
  return Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.dev !== true && (p.optional !== true || existsSync(join(repoRoot, path))))
    .map(([path]) => path);
}

/** The image's files at `app`: the build stage's /app is this checkout, built, with its production modules. */
function install(image: Image, app: string): void {
  for (const [from, to] of image.copies) {
    const rel = from.replace(/^\/app\/?/, '');
    // As COPY does: a destination ending in / is a directory the source goes into.
    const target = to.endsWith('/') ? join(app, to, basename(rel)) : join(app, to);
    if (rel === 'node_modules') {
      for (const pkg of productionPackages()) cpSync(join(repoRoot, pkg), join(target, pkg.replace(/^node_modules\//, '')), { recursive: true, dereference: true });
    } else {
      cpSync(join(repoRoot, rel), target, { recursive: true, dereference: true });
    }
  }
}

/** An argv of the image with its /app paths under `app`. */
const under = (argv: string[], workdir: string, app: string) => argv.map((a) => (a.startsWith(workdir + '/') ? join(app, a.slice(workdir.length)) : a));

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
