// Start the real launcher (dist/bin/engine-console.js) on 127.0.0.1:0 over a data directory, read the bound
// port from the stderr line that names the listen address, and speak HTTP to it. Build first:
// `npm run build:server` (npm test does it).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyHome, repoRoot } from './fixtures.ts';
import { giveTo, type RunAs } from './process.ts';

export const launcherPath = join(repoRoot, 'dist/bin/engine-console.js');

export interface LaunchOptions {
  /** Extra launcher arguments (e.g. ['--read-only'], ['--engine', path]). */
  args?: string[];
  /** Extra environment (merged over the test's own, minus ENGINE_* and TYPESAFE_* of the caller). */
  env?: Record<string, string | undefined>;
  /** A data directory to serve; default: a fresh temp copy of the fixture home (removed by stop()). */
  dataDir?: string;
  /** The token to run with; default 'test-token'. null runs with --no-auth. */
  token?: string | null;
  /** The launcher to run (an installed copy, say); default: this checkout's build. */
  launcher?: string;
  /** Run as this user (the data directory copy is handed to it); default: as the tests run. */
  user?: RunAs | null;
}

export interface Launched {
  url: string;
  port: number;
  token: string | null;
  dataDir: string;
  child: ChildProcess;
  /** performance.now() when the process was spawned. */
  startedMs: number;
  stderr(): string;
  /**
   * Resolves with stderr once it holds `text` (rejects after `ms`): launch resolves on the two start-up
   * lines, and a line written after them may still be in the pipe.
   */
  stderrWith(text: string, ms?: number): Promise<string>;
  /** fetch with the token as a Bearer header and, for writes, X-Engine-Console: 1. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM, wait for the exit, remove the temp copy; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function cleanEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('ENGINE_') || k.startsWith('TYPESAFE_')) continue;
    out[k] = v;
  }
  return out;
}

export async function launch(options: LaunchOptions = {}): Promise<Launched> {
  const launcher = options.launcher ?? launcherPath;
  if (!existsSync(launcher)) throw new Error(`${launcher} is missing: run npm run build:server first`);
  const copy = options.dataDir ? null : copyHome();
  const dataDir = options.dataDir ?? copy!.dir;
  const token = options.token === undefined ? 'test-token' : options.token;
  const args = [launcher, '--data', dataDir, '--listen', '127.0.0.1:0', ...(token === null ? ['--no-auth'] : []), ...(options.args ?? [])];
  const env: Record<string, string> = { ...cleanEnv() };
  if (token !== null) env.ENGINE_CONSOLE_TOKEN = token;
  // Tests keep no index between runs unless they ask for one (and never in the user's own cache).
  env.ENGINE_CONSOLE_INDEX_CACHE = 'off';
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const startedMs = performance.now();
  const user = options.user ?? null;
  if (user !== null && copy !== null) giveTo(copy.dir, user);
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
  let err = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => (err += c));
  child.stdout!.resume();

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the console did not start within 15 s:\n${err}`)), 15_000);
    const check = () => {
      const m = / on 127\.0\.0\.1:(\d+)/.exec(err);
      if (m && /engine-console: open /.test(err)) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the console exited (${code}) before it started:\n${err}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return {
    url,
    port,
    token,
    dataDir,
    child,
    startedMs,
    stderr: () => err,
    stderrWith(text, ms = 5_000) {
      return new Promise<string>((resolve, reject) => {
        if (err.includes(text)) return resolve(err);
        const timer = setTimeout(() => {
          child.stderr!.off('data', check);
          reject(new Error(`stderr did not show ${JSON.stringify(text)} within ${ms} ms:\n${err}`));
        }, ms);
        const check = () => {
          if (!err.includes(text)) return;
          clearTimeout(timer);
          child.stderr!.off('data', check);
          resolve(err);
        };
        child.stderr!.on('data', check);
      });
    },
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (token !== null && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
      const method = (init.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD' && !headers.has('X-Engine-Console')) headers.set('X-Engine-Console', '1');
      return fetch(url + path, { ...init, headers, redirect: 'manual' });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      copy?.cleanup();
      return code;
    },
  };
}

/** fetch with no token at all, no redirects followed. */
export function bare(l: Launched, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(l.url + path, { ...init, redirect: 'manual' });
}
