// start(config) binds the listener, wires the long-lived parts and serves; stop() ends event streams first
// (so open pages do not keep the process up), then the server and the worker pool. The launcher and the
// tests both use it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { Hub } from './events/hub.ts';
import { startWatch } from './events/watch.ts';
import { createApp } from './http/app.ts';
import { SignInCodes } from './http/sign-in-codes.ts';
import { JobRunner } from './jobs/runner.ts';
import { stopProbes } from './probe.ts';
import type { State } from './state.ts';
import { Store } from './store/store.ts';
import { createPool } from './workers/pool.ts';

export interface Started {
  state: State;
  server: Server;
  /** A one-time sign-in code for the `--open` link (sign-in-codes.ts). */
  signInCode(): string;
  stop(): Promise<void>;
}

/** Bind first (port 0 becomes the real port, which the Host check and the URL use), then serve. */
export async function start(config: Config, report: (err: unknown) => void): Promise<Started> {
  const server = createServer();
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: config.listenHost, port: config.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  config.port = (server.address() as AddressInfo).port;

  const hub = new Hub();
  const pool = createPool();
  const store = new Store({ dataDir: config.dataDir, pool, hub });
  await store.open();
  const catalog = async () => {
    store.touched();
    return store.catalog();
  };
  const jobs = await JobRunner.open({
    dataDir: config.dataDir,
    home: config.home,
    readOnly: config.readOnly,
    engine: config.engine,
    now: () => config.now(),
    publish: (job) => hub.publish('job', job),
    flowKeyAt: async (path) => (await catalog()).flowAt(path)?.key ?? null,
    warn: (line) => process.stderr.write(`${line}\n`),
  });
  const state: State = {
    config,
    catalog,
    store,
    pool,
    hub,
    jobs,
  };
  const codes = new SignInCodes();
  const app = createApp(state, report, codes);
  server.on('request', app.callback());
  const stopWatch = startWatch(config.dataDir, () => store.catalog(), hub);

  let stopping: Promise<void> | null = null;
  return {
    state,
    server,
    signInCode: () => codes.issue(),
    stop() {
      const work = async () => {
        stopWatch();
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
      // A stop never hangs: whatever is still busy after 3 s is cut off by the exit that follows.
      stopping ??= Promise.race([work(), new Promise<void>((r) => setTimeout(r, 3_000).unref())]);
      return stopping;
    },
  };
}
