#!/usr/bin/env node
// The engine-console launcher: argv and env → Config, the refusals, the two stderr lines, --open, a clean stop
// on Ctrl-C or SIGTERM; and `healthcheck`, which asks a running console for /api/health (exit 0 or 1).
import { cacheDirOf, OtlpSettingsError, otlpSettings, type OtlpSettings } from '../server/otlp/settings.ts';
import { settleHeap } from './memory.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEALTHCHECK_TIMEOUT_MS, SIGN_IN_CODE_TTL_MS, TOKEN_BYTES } from '../shared/limits.ts';
import { describeBinary, findBinary } from '../server/binaries.ts';
import type { Config } from '../server/config.ts';
import { start } from '../server/start.ts';
import { VERSION } from '../server/version.ts';
import { writeOpenPage } from './open-page.ts';
import { savedIndexOf } from './index-cache.ts';
import { FatalError, formatAddress, homeOf, isLoopback, parseOptions, USAGE, UsageError, type ListenAddress, type Options } from './options.ts';
import { errorText } from '../shared/error-text.ts';

const say = (line: string) => process.stderr.write(`engine-console: ${line}\n`);

/** The package root: the folder above bin/ (source) or dist/bin/ (bundle) that holds package.json. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return dirname(fileURLToPath(import.meta.url));
}

/** The URL host for an address: loopback stands in for an unspecified bind. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

async function healthcheck(listen: ListenAddress): Promise<number> {
  const ipv6 = listen.host.includes(':');
  const url = `http://${ipv6 ? '[::1]' : '127.0.0.1'}:${listen.port}/api/health`;
  return new Promise((done) => {
    const req = request(url, { method: 'GET', timeout: HEALTHCHECK_TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          say(`${url} answered ${status} ${res.statusMessage ?? ''}`.trimEnd());
          return done(1);
        }
        try {
          if ((JSON.parse(body) as { ok?: unknown }).ok === true) return done(0);
        } catch {
          // falls through to "did not answer ok"
        }
        say(`${url} did not answer ok`);
        done(1);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${HEALTHCHECK_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => {
      say(`${url}: ${err.message}`);
      done(1);
    });
    req.end();
  });
}

function dataDirOf(options: Options, env: NodeJS.ProcessEnv, home: string | null): string {
  let dir = options.data ?? (env.ENGINE_HOME ? env.ENGINE_HOME : null);
  if (dir === null) {
    if (home === null) throw new FatalError('neither HOME nor USERPROFILE is set: pass --data');
    dir = join(home, '.engine');
  }
  dir = resolve(dir);
  if (!existsSync(dir)) {
    if (options.readOnly) throw new FatalError(`${dir} does not exist (and --read-only creates nothing)`);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new FatalError(`creating ${dir}: ${errorText(err)}`);
    }
  }
  let canonical: string;
  try {
    canonical = realpathSync(dir);
  } catch (err) {
    throw new FatalError(`resolving ${dir}: ${errorText(err)}`);
  }
  if (!statSync(canonical).isDirectory()) throw new FatalError(`${canonical} is not a directory`);
  return canonical;
}

async function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const program = env.BROWSER?.trim() || 'the system browser';
  try {
    const { default: open } = await import('open');
    const child = env.BROWSER?.trim() ? await open(url, { app: { name: env.BROWSER.trim() } }) : await open(url);
    child.on('error', (err) => say(`opening the browser (${program}): ${err.message}`));
  } catch (err) {
    say(`opening the browser (${program}): ${errorText(err)}`);
  }
}

async function serve(options: Options, env: NodeJS.ProcessEnv): Promise<void> {
  const address = formatAddress(options.listen);
  if (options.noAuth && !isLoopback(options.listen.host)) {
    throw new FatalError(`--no-auth is refused on ${address}: without a token, listen on a loopback address (127.0.0.1 or [::1])`);
  }
  const home = homeOf(env);
  const dataDir = dataDirOf(options, env, home);
  const given = options.noAuth ? null : (options.token ?? (env.ENGINE_CONSOLE_TOKEN?.trim() ? env.ENGINE_CONSOLE_TOKEN : null));
  const token = options.noAuth ? null : (given ?? randomBytes(TOKEN_BYTES).toString('hex'));
  const set = (name: string) => env[name] !== undefined && env[name] !== '';

  const root = packageRoot();
  const besideDir = dirname(realpathSync(process.argv[1] ?? fileURLToPath(import.meta.url)));
  const find = (name: string, explicit?: string) => findBinary(name, besideDir, env.PATH, explicit);
  const [engine, proxy, procedure, mcpDemo] = await Promise.all([
    describeBinary(find('engine', options.engine ?? undefined)),
    describeBinary(find('engine-proxy')),
    describeBinary(find('engine-procedure')),
    describeBinary(find('engine-mcp-demo')),
  ]);
  // The spec's two lines come first (the second is the URL a script reads): warnings wait for them.
  const warnings: string[] = [];
  let warnNow = false;
  const warn = (line: string) => (warnNow ? process.stderr.write(`${line}\n`) : warnings.push(line));
  if (engine === null) warn('engine-console: the engine CLI is not beside the console or on PATH, so jobs cannot run (pass --engine PATH)');

  let otlp: OtlpSettings | null;
  try {
    otlp = otlpSettings(options.otlp, env, cacheDirOf(env, home), dataDir);
  } catch (err) {
    if (err instanceof OtlpSettingsError) throw new UsageError(err.message);
    throw err;
  }

  const savedIndex = savedIndexOf(options, env, home, dataDir, warn);
  const uiDir = join(root, 'console', 'dist');
  const hasUi = existsSync(join(uiDir, 'index.html'));
  const fixedNow = Number(env.ENGINE_CONSOLE_NOW_MS);
  const config: Config = {
    version: VERSION,
    dataDir,
    home,
    token,
    tokenGenerated: token !== null && given === null,
    readOnly: options.readOnly,
    savedIndex,
    listenHost: options.listen.host,
    port: options.listen.port,
    engine,
    proxy,
    procedure,
    mcpDemo,
    keySet: set('TYPESAFE_API_KEY'),
    keyFileSet: set('TYPESAFE_API_KEY_FILE'),
    redactSaltSet: set('ENGINE_REDACT_SALT'),
    uiDir: hasUi ? uiDir : null,
    // Running from source (npm run dev) reads the UI from disk, so a rebuild shows at once.
    uiFromDisk: import.meta.url.endsWith('.ts') || env.ENGINE_CONSOLE_UI_FROM_DISK === '1',
    otlp,
    now: Number.isFinite(fixedNow) && env.ENGINE_CONSOLE_NOW_MS ? () => fixedNow : () => Date.now(),
  };

  // Signals are handled from here on, so a stop that comes during start-up is clean too.
  let started: Awaited<ReturnType<typeof start>> | null = null;
  let stopping = false;
  const stop = async () => {
    // A second Ctrl-C does not wait for the save: the next start reads again only what changed since the last.
    if (stopping) {
      say('stopped at once: what changed since the index was last saved is read again at the next start');
      process.exit(130);
    }
    stopping = true;
    await started?.stop();
    say('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  try {
    started = await start(config, (err) => say(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}`), warn);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    for (const line of warnings.splice(0)) process.stderr.write(`${line}\n`);
    throw new FatalError(`listening on ${address}: ${e.code === 'EADDRINUSE' ? 'the address is already in use' : e.message}`);
  }
  // Once the cold index is in, the heap is kept near what is live (memory.ts): after what start does then,
  // in a turn of its own, so a request waits behind one of them at most.
  void started.warmed.then(() => {
    setImmediate(() => {
      if (!stopping) settleHeap({ collect: !started.state.store.builtFromSaved });
    });
  });
  const bound = formatAddress({ host: options.listen.host, port: config.port });
  const url = `http://${urlHost(options.listen.host)}:${config.port}/`;
  say(`${dataDir} on ${bound}${config.readOnly ? ', read-only' : ''}`);
  if (token === null) say(`open ${url} (no token: --no-auth)`);
  else if (config.tokenGenerated) say(`open ${url}?token=${token}`);
  else say(`open ${url}?token=<your token> (the token you gave; it is not printed)`);
  if (!hasUi) say('this build has no UI (console/dist); the API is up, and / says how to build the UI');
  warnNow = true;
  for (const line of warnings.splice(0)) process.stderr.write(`${line}\n`);
  if (!options.open) return;
  const target = token === null ? url : privateLink(`${url}?code=${started.signInCode()}`);
  if (target !== null) await openBrowser(target, env);
}

/** The one-time link behind a private file (open-page.ts), removed once the code is dead or at exit. */
function privateLink(link: string): string | null {
  try {
    const page = writeOpenPage(link);
    process.once('exit', page.remove);
    setTimeout(page.remove, SIGN_IN_CODE_TTL_MS).unref();
    return page.url;
  } catch (err) {
    say(`--open: writing the private sign-in page: ${errorText(err)} (open the printed URL instead)`);
    return null;
  }
}

async function main(): Promise<number> {
  const env = process.env;
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2), env);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`engine-console: ${err.message}\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`engine-console ${VERSION}\n`);
    return 0;
  }
  if (options.command === 'healthcheck') return healthcheck(options.listen);
  await serve(options, env);
  return -1; // serving: the signal handlers exit
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    say(errorText(err));
    process.exit(1);
  },
);
