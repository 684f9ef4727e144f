// GET /api/overview (console-api.md §4.3): gathers the sessions, flows, registry and jobs, and hands them to
// the pure assembly in engine/overview.ts (days, totals, domains, the health list's order).
import Router from '@koa/router';
import type { Overview } from '../../../shared/overview.ts';
import { OVERVIEW_JOBS, OVERVIEW_SESSIONS } from '../../../shared/limits.ts';
import { flowSummaries, latestListing, loadFlowEntry } from '../../data/flows.ts';
import { loadRegistry, RegistryError, serverView, type LoadedRegistry } from '../../data/registry.ts';
import { sessionSummaries } from '../../data/sessions.ts';
import { setupHealth } from '../../engine/doctor.ts';
import { activity, healthList, totalsAndDomains, type HealthInputs } from '../../engine/overview.ts';
import { listingSource, toolWarnings } from '../../engine/warnings.ts';
import { serverViewContext } from '../../data/server-context.ts';
import type { State } from '../../state.ts';

export async function overview(state: State): Promise<Overview> {
  const { config } = state;
  const now = config.now();
  const catalog = await state.catalog();
  const [{ readable, unreadable }, summaries, jobs] = await Promise.all([
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
    registry.servers.map(async (entry) => ({ name: entry.name, issues: (await serverView(entry, readable, async () => null, ctx)).issues })),
  );

  const { totals, domains } = totalsAndDomains(
    { sessions: readable, shadowDecisions: shadow.ok ? shadow.value : 0, flows: flowDomains, servers: registry.servers.map((s) => s.name) },
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
    activity: activity(readable, now),
    recent_sessions: readable.slice(0, OVERVIEW_SESSIONS),
    health,
    jobs: jobs.slice(0, OVERVIEW_JOBS),
  };
}

export function overviewRoutes(state: State): Router {
  const router = new Router();
  router.get('/api/overview', async (ctx) => {
    ctx.body = (await overview(state)) satisfies Overview;
  });
  return router;
}
