// Replays (README, "Replay"): start one against a registered server (202), list them, one with its calls,
// cancel (409 once ended), compare again with other ignored paths (the server is not called), and download
// as JSON or Markdown. The guard has already refused writes without X-Engine-Console or under --read-only.
import Router from '@koa/router';
import { basename } from 'node:path';
import {
  RecompareInputSchema,
  ReplayDownloadQuerySchema,
  ReplayInputSchema,
  ReplayParamsSchema,
  ReplayPlanQuerySchema,
  type ReplayList,
  type ReplayPlan,
  type ReplayRun,
} from '../../../shared/replay.ts';
import { ServerParamsSchema } from '../../../shared/servers.ts';
import type { Context } from 'koa';
import { findServer, noServer, RegistryError, RegistryUnreadable, type StoredEntry } from '../../data/registry.ts';
import { debugString } from '../../engine/format.ts';
import { replayMarkdown } from '../../replay/markdown.ts';
import { ReplayRuns, summaryOf } from '../../replay/runs.ts';
import { serverFlowSites } from '../../replay/flow-sites.ts';
import { replayPlan } from '../../replay/plan.ts';
import { pooledRecordings, RecordingsUnreadable } from '../../replay/read.ts';
import { pickSessions } from '../../replay/sessions.ts';
import type { State } from '../../state.ts';
import { conflict, internal, notFound, unprocessable } from '../errors.ts';
import { sendJson } from '../json.ts';
import { parseBody, parseParams, parseQuery } from '../parse.ts';
import { setContentType } from '../content-type.ts';

const noRun = (id: string) => notFound(`no replay ${debugString(id)}: runs are kept while the console runs, the newest 50`);

export function replaysRoutes(state: State): Router {
  const read = pooledRecordings(state.pool);
  const runs = new ReplayRuns({ publish: (summary) => state.hub.publish('replay', summary), now: state.config.now, read });

  function find(id: string): ReplayRun {
    const run = runs.get(id);
    if (!run) throw noRun(id);
    return run;
  }

  async function server(ctx: Context): Promise<StoredEntry> {
    const { name } = parseParams(ctx, ServerParamsSchema);
    let entry: StoredEntry | undefined;
    try {
      entry = await findServer(state.config.dataDir, state.pool, name);
    } catch (err) {
      if (err instanceof RegistryUnreadable) throw unprocessable(err.message);
      if (err instanceof RegistryError) throw internal(err.message);
      throw err;
    }
    if (!entry) throw notFound(noServer(name));
    return entry;
  }

  return new Router()
    .get('/api/servers/:name/replay', async (ctx) => {
      const entry = await server(ctx);
      const { newest } = parseQuery(ctx, ReplayPlanQuerySchema);
      const picked = await pickSessions(state, entry.name, undefined, newest);
      if (!picked.ok) throw notFound(`no session ${debugString(picked.missing)}`);
      let plan: ReplayPlan;
      try {
        plan = await replayPlan(read, picked.logs);
      } catch (err) {
        if (err instanceof RecordingsUnreadable) throw unprocessable(err.message);
        throw err;
      }
      sendJson(ctx, plan);
    })
    .post('/api/servers/:name/replay', async (ctx) => {
      const entry = await server(ctx);
      const name = entry.name;
      const input = parseBody(ctx, ReplayInputSchema);
      const going = runs.going(name);
      if (going) throw conflict(`a replay of ${name} is running (${going.id}): cancel it or wait until it ends`);
      const picked = await pickSessions(state, name, input.sessions, input.newest);
      if (!picked.ok) throw notFound(`no session ${debugString(picked.missing)}`);
      const flowSites = await serverFlowSites(state, entry);
      // Looked at again: another request may have started one while the sessions were picked.
      const started = runs.going(name);
      if (started) throw conflict(`a replay of ${name} is running (${started.id}): cancel it or wait until it ends`);
      const run = runs.start(name, picked.logs.map((l) => l.key), {
        upstream: entry.upstream,
        version: state.config.version,
        logs: picked.logs,
        maxCalls: input.max_calls,
        ignore: input.ignore_paths,
        flowSites,
      });
      ctx.status = 202;
      sendJson(ctx, run satisfies ReplayRun);
    })
    .get('/api/replays', (ctx) => {
      sendJson(ctx, { items: runs.list() } satisfies ReplayList);
    })
    .get('/api/replays/:id', (ctx) => {
      sendJson(ctx, find(parseParams(ctx, ReplayParamsSchema).id) satisfies ReplayRun);
    })
    .get('/api/replays/:id/download', (ctx) => {
      const run = find(parseParams(ctx, ReplayParamsSchema).id);
      const { format } = parseQuery(ctx, ReplayDownloadQuerySchema);
      const name = basename(`replay-${run.server}-${run.id}.${format}`).replace(/[^A-Za-z0-9._-]/g, '_');
      ctx.set('Content-Disposition', `attachment; filename="${name}"`);
      if (format === 'md') {
        setContentType(ctx, 'text');
        ctx.body = replayMarkdown(run);
      } else {
        sendJson(ctx, run satisfies ReplayRun);
      }
    })
    .post('/api/replays/:id/cancel', async (ctx) => {
      const run = find(parseParams(ctx, ReplayParamsSchema).id);
      if (!(await runs.cancel(run.id))) throw conflict(`the replay ${run.id} has ended (${run.status}): there is nothing to cancel`);
      sendJson(ctx, summaryOf(run));
    })
    .post('/api/replays/:id/compare', (ctx) => {
      const run = find(parseParams(ctx, ReplayParamsSchema).id);
      const { ignore_paths } = parseBody(ctx, RecompareInputSchema);
      if (runs.going(run.server)?.id === run.id) throw conflict(`the replay ${run.id} is still running: compare again once it has ended`);
      if (run.answers_dropped_unix_ms !== null) throw conflict(`the answers of the replay ${run.id} were let go to bound the console's memory: start a new run to compare again`);
      runs.recompare(run, ignore_paths);
      sendJson(ctx, run satisfies ReplayRun);
    });
}
