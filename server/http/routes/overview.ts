// GET /api/overview (console-api.md §4.3): gathers the sessions, flows, registry and jobs, and hands them to
// the pure assembly in engine/overview.ts (days, totals, domains, the health list's order).
import Router from '@koa/router';
import { OverviewQuerySchema, type Overview, type OverviewQuery } from '../../../shared/overview.ts';
import { OVERVIEW_JOBS, OVERVIEW_SESSIONS } from '../../../shared/limits.ts';
import { flowSummaries, latestListing, loadFlowEntry } from '../../data/flows.ts';
import { loadRegistry, RegistryError, serverView, type LoadedRegistry } from '../../data/registry.ts';
import { sessionSummaries } from '../../data/sessions.ts';
import { setupHealth } from '../../engine/doctor.ts';
import { healthList, totalsAndDomains, type HealthInputs } from '../../engine/overview.ts';
import { activityBetween, chartDays, overviewPredicate } from '../../engine/session-filter.ts';
import { parseQuery } from '../parse.ts';
import { listingSource, toolWarnings } from '../../engine/warnings.ts';
import { serverViewContext } from '../../data/server-context.ts';
import type { State } from '../../state.ts';

export async function overview(state: State, query: OverviewQuery = { domain: null, from: null, to: null }): Promise<Overview> {
  const { config } = state;
  const now = config.now();
  const catalog = await state.catalog();
  const [{ readable: all, unreadable }, summaries, jobs] = await Promise.all([
    sessionSummaries(state),
    flowSummaries(state, catalog),
    state.jobs.list(),
  ]);
  let registry: LoadedRegistry = { servers: [] };
  let registryError: string | null = null;
  try {
    registry = await loadRegistry(config.dataDir);
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    registryError = err.message;
  }

  // The domain and the day range (session-filter.ts) narrow what is counted; the domain list stays whole.
  const readable = all.filter(overviewPredicate(query));
  const readableKeys = new Set(readable.map((s) => s.key));
  const flowLogs = catalog.sessions.filter((f) => f.flowLog !== null && readableKeys.has(f.key)).map((f) => f.flowLog!);
  const shadow = await state.pool.run('shadowDecisionsTask', flowLogs);

  const flows: HealthInputs['flows'][number][] = [];
  const flowDomains: { key: string; domain: string | null }[] = [];
  for (const summary of summaries) {
    const file = catalog.flow(summary.key);
    const entry = file ? await loadFlowEntry(state, file) : null;
    const flow = entry?.flow ?? null;
    if (!flow) {
      flowDomains.push({ key: summary.key, domain: null });
      flows.push({ rel: summary.path, error: entry?.error ?? summary.error ?? 'unknown error' });
      continue;
    }
    flowDomains.push({ key: summary.key, domain: flow.domain });
    const listing = await latestListing(state, flow.domain);
    flows.push({ rel: summary.path, warnings: listing ? toolWarnings(flow, listing.tools, listingSource(listing.sessionId)) : [] });
  }

  const ctx = serverViewContext(state);
  const servers = await Promise.all(
    registry.servers.map(async (entry) => ({ name: entry.name, issues: (await serverView(entry, all, async () => null, ctx)).issues })),
  );

  const { domains } = totalsAndDomains(
    { sessions: all, shadowDecisions: 0, flows: flowDomains, servers: registry.servers.map((s) => s.name) },
    now,
  );
  const mine = (name: string | null) => !query.domain || name === query.domain;
  const { totals } = totalsAndDomains(
    {
      sessions: readable,
      shadowDecisions: shadow.ok ? shadow.value : 0,
      flows: query.domain ? flowDomains.filter((f) => mine(f.domain)) : flowDomains,
      servers: registry.servers.map((s) => s.name).filter(mine),
    },
    now,
  );
  const health = healthList({
    setup: setupHealth({
      dataDir: config.dataDir,
      readOnly: config.readOnly,
      pid: process.pid,
      consoleVersion: config.version,
      engine: config.engine,
      proxy: config.proxy,
      keySet: config.keySet,
      keyFileSet: config.keyFileSet,
    }),
    registryError,
    flows,
    unreadable: unreadable.map((u) => ({ rel: u.file.rel, error: u.error })),
    servers,
  });
  return {
    totals,
    domains,
    activity: activityBetween(readable, chartDays(query, now)),
    recent_sessions: readable.slice(0, OVERVIEW_SESSIONS),
    health,
    jobs: jobs.slice(0, OVERVIEW_JOBS),
  };
}

export function overviewRoutes(state: State): Router {
  const router = new Router();
  router.get('/api/overview', async (ctx) => {
    ctx.body = (await overview(state, parseQuery(ctx, OverviewQuerySchema))) satisfies Overview;
  });
  return router;
}
