// The servers API (console-api.md §4.15–4.18): the registry with what the list adds, add / change / remove
// an entry, the host configuration `engine init` prints, and the live connection test. The guard already
// refused writes under --read-only (the probe included). Registry load failures are 500 with their message.
// A probe past the most at once is 429 (README, "The server registry"): refused, not queued.
import Router from '@koa/router';
import { sendJson, sendJsonStream } from '../json.ts';
import type { Context } from 'koa';
import type { Ok } from '../../../shared/common.ts';
import {
  HOSTS,
  HostConfigQuerySchema,
  ProbeInputSchema,
  ServerInputSchema,
  ServerParamsSchema,
  type Host,
  type HostConfig,
  type ProbeResult,
  type ServerEntry,
  type ServerView,
} from '../../../shared/servers.ts';
import { debugString } from '../../engine/format.ts';
import {
  RegistryError,
  RegistryUnreadable,
  addServer,
  discoveredUpstreams,
  findServer,
  hostConfig,
  noServer,
  removeServer,
  replaceServer,
  resolvedPath,
  serverView,
  type Change,
  type StoredEntry,
} from '../../data/registry.ts';
import { oneServerView, probeFlowWarnings, serverList } from '../../data/servers.ts';
import { serverViewContext } from '../../data/server-context.ts';
import { probe, type ProbeAnswer } from '../../probe.ts';
import { secretValues } from '../../probe/secrets.ts';
import { busyText, takeProbeSlot } from '../../probe/slots.ts';
import type { State } from '../../state.ts';
import { ApiError, badRequest, conflict, internal, notFound, tooManyRequests, unprocessable } from '../errors.ts';
import { parseBody, parseParams, parseQuery } from '../parse.ts';
import { trashFailure } from './trash.ts';

/** A registry the console cannot read is 422 (its content); failing to read or write it is 500. */
async function registry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RegistryUnreadable) throw unprocessable(err.message);
    if (err instanceof RegistryError) throw internal(err.message);
    throw err;
  }
}

/**
 * Where the test's header values come from: the console's environment, with one-off values for the entry's own
 * header variables on top (other names are ignored). They live for this request only, and are never logged.
 */
function probeEnv(entry: ServerEntry, oneOff: Record<string, string>): Record<string, string | undefined> {
  if (entry.upstream.kind !== 'http') return process.env;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const h of entry.upstream.headers) if (Object.hasOwn(oneOff, h.env)) env[h.env] = oneOff[h.env];
  return env;
}

function refused(change: Exclude<Change, { ok: true }>): ApiError {
  if (change.reason === 'invalid') return badRequest(change.message);
  if (change.reason === 'missing') return notFound(change.message);
  return conflict(change.message);
}

export function serversRoutes(state: State): Router {
  const changeContext = () => ({ dataDir: state.config.dataDir, home: state.config.home, nowMs: state.config.now() });

  async function find(ctx: Context): Promise<StoredEntry> {
    const { name } = parseParams(ctx, ServerParamsSchema);
    const entry = await registry(() => findServer(state.config.dataDir, state.pool, name));
    if (!entry) throw notFound(noServer(name));
    return entry;
  }

  return new Router()
    .get('/api/servers', async (ctx) => {
      const list = await registry(() => serverList(state));
      sendJsonStream(ctx, 'items', list.itemsText(), list.rest);
    })
    .post('/api/servers', async (ctx) => {
      const input = parseBody(ctx, ServerInputSchema);
      const change = await registry(() => addServer(input, changeContext()));
      if (!change.ok) throw refused(change);
      sendJson(ctx, (await oneServerView(state, change.entry)) satisfies ServerView);
    })
    .put('/api/servers/:name', async (ctx) => {
      const { name } = parseParams(ctx, ServerParamsSchema);
      const input = parseBody(ctx, ServerInputSchema);
      const change = await registry(() => replaceServer(name, input, changeContext()));
      if (!change.ok) throw refused(change);
      sendJson(ctx, (await oneServerView(state, change.entry)) satisfies ServerView);
    })
    .delete('/api/servers/:name', async (ctx) => {
      const { name } = parseParams(ctx, ServerParamsSchema);
      let removed;
      try {
        removed = await registry(() => removeServer(name, changeContext()));
      } catch (err) {
        throw trashFailure(err);
      }
      if (!removed.ok) throw notFound(removed.message);
      sendJson(ctx, { ok: true } satisfies Ok);
    })
    .get('/api/servers/:name/config', async (ctx) => {
      // The host is checked before the lookup.
      const { host } = parseQuery(ctx, HostConfigQuerySchema);
      if (!(HOSTS as readonly string[]).includes(host)) {
        throw badRequest(`host ${debugString(host)}: expected claude-code, claude-desktop, cursor or vscode`);
      }
      const entry = await find(ctx);
      sendJson(ctx, (await hostConfig(entry, host as Host, serverViewContext(state))) satisfies HostConfig);
    })
    .post('/api/servers/:name/probe', async (ctx) => {
      const entry = await find(ctx);
      const { env: oneOff } = parseBody(ctx, ProbeInputSchema);
      const release = takeProbeSlot();
      if (!release) throw tooManyRequests(busyText);
      let result: ProbeAnswer;
      try {
        const env = probeEnv(entry, oneOff);
        const secrets = await secretValues(entry.upstream, env, oneOff);
        result = await probe(entry.upstream, { version: state.config.version, env, secrets });
      } finally {
        release();
      }
      const flow_warnings = result.ok ? await probeFlowWarnings(state, entry, result.tools) : [];
      const { stderr_tail, ...answer } = result;
      sendJson(ctx, { ...answer, flow_warnings, ...(stderr_tail === undefined ? {} : { stderr_tail }) } satisfies ProbeResult);
    });
}
