// start(config) binds the listener, wires the long-lived parts and serves; stop() ends event streams first
// (so open pages do not keep the process up), then the server and the worker pool. The launcher and the
// tests both use it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { Hub } from './events/hub.ts';
import { createApp } from './http/app.ts';
import { answerNodeRefusals } from './http/client-error.ts';
import { overview } from './data/overview.ts';
import { serverList } from './data/servers.ts';
import { SignInCodes } from './http/sign-in-codes.ts';
import { EngineCommands } from './jobs/commands.ts';
import { JobRunner } from './jobs/runner.ts';
import { stopProbes } from './probe.ts';
import { startOtlpStreamer } from './otlp/streamer.ts';
import type { State } from './state.ts';
import { Store } from './store/store.ts';
import { DataCaches } from './data/data-caches.ts';
import { createPool } from './workers/pool.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface Started {
  state: State;
  server: Server;
  /** A one-time sign-in code for the `--open` link (sign-in-codes.ts). */
  signInCode(): string;
  /** Resolves once the cold index is in and the first visits' figures are computed (or the console stops). */
  warmed: Promise<void>;
  stop(): Promise<void>;
}

/** How long a stop waits for the index's save at most: with what follows, within the 10 s a container's stop gives. */
const SAVE_AT_STOP_MS = 6_000;

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/** The long-lived parts, made once the port is bound: the store is not opened yet (start does). */
async function buildState(config: Config, warn: (line: string) => void): Promise<State> {
  const hub = new Hub();
  const pool = createPool();
  const store = new Store({ dataDir: config.dataDir, pool, hub, savedIndex: config.savedIndex, warn });
  const catalog = async () => {
    await store.listed;
    await store.touched();
    return store.catalog();
  };
  // A session page opened as the console starts need not wait for every log to be listed.
  const session = async (key: string) => (await store.sessionWhileListing(key)) ?? (await catalog()).session(key);
  const jobs = await JobRunner.open({
    dataDir: config.dataDir,
    home: config.home,
    readOnly: config.readOnly,
    engine: config.engine,
    now: () => config.now(),
    publish: (job) => hub.publish('job', job),
    flowKeyAt: async (path) => (await catalog()).flowAt(path)?.key ?? null,
    warn,
  });
  const commands = new EngineCommands(config.engine);
  // Asked once the store has opened (after the first answer), so the CLI's start never delays that answer
  // and the first New job page already knows the kinds.
  void store.opened.then(() => commands.offers());
  return {
    config,
    catalog,
    session,
    store,
    caches: new DataCaches(),
    pool,
    hub,
    jobs,
    commands,
  };
}

/**
 * Bind first (port 0 becomes the real port, which the Host check and the URL use), then serve. `warn`
 * takes whole lines for stderr (the launcher holds them until its start-up lines are out).
 */
export async function start(
  config: Config,
  report: (err: unknown) => void,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<Started> {
  const server = createServer();
  server.keepAliveTimeout = 5_000;
  // A request Node refuses before Koa sees it still gets the API's error shape and the security headers.
  answerNodeRefusals(server);
  // Requests that arrive between the bind and the app being ready wait for it (with no listener, Node
  // would hold them unanswered until its request timeout).
  let serve: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const early: [IncomingMessage, ServerResponse][] = [];
  // The store opens once the first request is answered (or has waited 10 ms), or 50 ms after the bind.
  let firstRequest: (() => void) | null = null;
  server.on('request', (req, res) => {
    if (firstRequest) {
      res.once('finish', firstRequest);
      setTimeout(firstRequest, 10);
    }
    if (serve) serve(req, res);
    else early.push([req, res]);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: config.listenHost, port: config.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  config.port = (server.address() as AddressInfo).port;

  const state = await buildState(config, warn);
  const { store, hub, pool, jobs } = state;
  const codes = new SignInCodes();
  const app = createApp(state, report, codes);
  let stopping: Promise<void> | null = null;
  serve = app.callback();
  for (const [req, res] of early.splice(0)) serve(req, res);
  const otlp = config.otlp;
  if (otlp) {
    // Once every log is indexed: a first look at a part of them would take the rest for new ones later.
    void store.coldIndexDone.then(async () => {
      if (stopping) return;
      const streamer = await startOtlpStreamer(state, otlp);
      if (stopping) await streamer.stop();
      else state.otlp = streamer;
    });
  }

  // The overview and the servers list are what most visits ask for first (the shell asks for both): their
  // figures over every session are computed once the cold index is in, not while the first visitor waits.
  // Each a turn of the event loop after the last: in the index's last turn they held requests as long again.
  const warmed = store.coldIndexDone.then(async () => {
    await nextTurn();
    if (stopping) return;
    warmStreamAnswers();
    await nextTurn();
    if (stopping) return;
    await overview(state).catch(() => undefined);
    await nextTurn();
    if (!stopping) await serverList(state).catch(() => undefined);
  });

  // The walk of the data directory starts after start() has returned (the start-up lines are printed
  // first), once the first request is answered or 50 ms have passed: forking the pool's workers holds the
  // event loop ~30 ms, and a health check or a page's first answer need not wait behind it. A first request
  // that needs the store (every reader waits for its walk: Store.opened) has it opened 10 ms in.
  const openStore = () => {
    if (firstRequest === null) return;
    firstRequest = null;
    clearTimeout(openTimer);
    void store.open();
  };
  firstRequest = openStore;
  const openTimer = setTimeout(openStore, 50);
  return {
    state,
    server,
    signInCode: () => codes.issue(),
    warmed,
    stop() {
      const work = async () => {
        clearTimeout(openTimer);
        firstRequest = null;
        await state.otlp?.stop();
        // What changed since the last save is saved, so the next start reads none of it again; a million
        // sessions' save takes 3–4 s, past which it is let go (the next start checks every stamp anyway).
        await Promise.race([store.save(), delay(SAVE_AT_STOP_MS)]);
        store.close();
        hub.closeAll();
        stopProbes();
        await jobs.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 1_000).unref();
        });
        await pool.destroy();
      };
      // A stop never hangs: whatever is still busy after the save and 3 s more is cut off by the exit that follows.
      stopping ??= Promise.race([work(), delay(SAVE_AT_STOP_MS + 3_000)]);
      return stopping;
    },
  };
}

/**
 * Koa asks whether a streamed body (the event stream, a file) is a fetch `Response`, and Node loads its fetch
 * implementation (~30 ms of the event loop) the first time anything touches that global. Touched here, once
 * the cold index is in, a page's first event stream does not wait behind it.
 */
function warmStreamAnswers(): void {
  void globalThis.Response;
}
