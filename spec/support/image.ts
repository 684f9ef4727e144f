// The Dockerfile's final stage as far as running the image goes, and its files installed in a folder of
// their own (the build's output and the production modules): a copy any user can read, wherever the checkout is.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as v from 'valibot';
import { repoRoot } from './fixtures.ts';

/** The final stage of the Dockerfile, as far as running the image goes. */
export interface Image {
  env: Record<string, string>;
  workdir: string;
  /** [from in the build stage, to under workdir]. */
  copies: [string, string][];
  entrypoint: string[];
  healthcheck: string[];
}

export function readImage(): Image {
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
export function install(image: Image, app: string): void {
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
export const under = (argv: string[], workdir: string, app: string) => argv.map((a) => (a.startsWith(workdir + '/') ? join(app, a.slice(workdir.length)) : a));

