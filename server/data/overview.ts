// The overview (console-api.md §4.3): gathers the sessions (from the store), flows, registry and jobs, and
// hands them to the pure assembly in engine/overview.ts (days, totals, domains, the health list's order).
// The session figures come from the index's running sums (engine/tallies.ts), so a page polling the overview
// over 100k sessions, while new sessions keep arriving, costs the flows and the registry, not a pass over
// every session.
import type { DriftHealth } from '../../shared/drift.ts';
import type { FlowSummary } from '../../shared/flows.ts';
import { driftHealth } from './drift-checks.ts';
import type { Overview, OverviewQuery } from '../../shared/overview.ts';
import { OVERVIEW_JOBS, OVERVIEW_SESSIONS } from '../../shared/limits.ts';
import { flowSummaries, latestListing, loadFlowEntry } from './flows.ts';
import { mapInSlices, VIEW_SLICE } from './in-slices.ts';
import { issuesOf, lookAhead, readRegistry, RegistryError, type LoadedRegistry } from './registry.ts';
import { sessionSummaries } from './sessions.ts';
import { setupHealth } from '../engine/doctor.ts';
import { activity, healthList, totalsAndDomains, type HealthInputs } from '../engine/overview.ts';
import { activityBetween, chartDays, overviewPredicate, startedWithin } from '../engine/session-filter.ts';
import { listingSource, toolWarnings } from '../engine/warnings.ts';
import { serverViewContext } from './server-context.ts';
import type { DataContext } from './data-context.ts';

const NO_FILTER: OverviewQuery = { domain: null, from: null, to: null };

/**
 * With `query` (beyond the spec: a domain, UTC days) the totals, the chart and the newest sessions count only
 * the matching sessions; the domain list stays whole, for the filter to choose from.
 */
/** Each flow's drift line where the engine has drift; without it, only the flows a past check covered. */
function driftOf(summaries: FlowSummary[], offered: boolean): DriftHealth[] {
  const checks = new Map(summaries.flatMap((s) => (s.drift ? [[s.key, s.drift] as const] : [])));
  const lines = driftHealth(summaries, checks);
  return offered ? lines : lines.filter((l) => l.state !== 'never');
}

export async function overview(state: DataContext, query: OverviewQuery = NO_FILTER): Promise<Overview> {
  const { config } = state;
  const now = config.now();
  const catalog = await state.catalog();
  // The index's progress is read with the summaries: read later, a cold index that ended in between would
  // hide that these summaries were partial.
  const [[sessions, indexing], summaries, jobs, driftOffer] = await Promise.all([
    sessionSummaries(state).then((s) => [s, state.store.progress()] as const),
    flowSummaries(state, catalog),
    state.jobs.list(),
    state.commands.offer('drift'),
  ]);
  let registry: LoadedRegistry = { servers: [] };
  let registryError: string | null = null;
  try {
    registry = await readRegistry(config.dataDir, state.pool);
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    registryError = err.message;
  }

  const { store } = state;
  const { entries, unreadable, counts } = sessions;

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
  const looked = await lookAhead(registry.servers, ctx);
  const servers = await mapInSlices(registry.servers, VIEW_SLICE, async (entry) => ({
    name: entry.name,
    issues: issuesOf(entry, looked, ctx),
  }));

  const serverNames = registry.servers.map((s) => s.name);
  const all = store.derived(`overviewTotals:${Math.floor(now / 60_000)}:${JSON.stringify([flowDomains, serverNames])}`, () =>
    totalsAndDomains({ sessions: counts, shadowDecisions: counts.tallies.shadowDecisions(), flows: flowDomains, servers: serverNames }, now),
  );
  const filtered = query.domain !== null || query.from !== null || query.to !== null;
  const keep = overviewPredicate(query);
  const chosen = filtered
    ? store.derived(`overviewChosen:${JSON.stringify(query)}`, () => entries.filter(keep))
    : entries;
  const mine = (name: string | null) => !query.domain || name === query.domain;
  // A range narrows each domain's counts too, so a domain card's figure is what its link lists.
  const ranged = query.from !== null || query.to !== null;
  const domains = ranged
    ? store.derived(`overviewDomains:${Math.floor(now / 60_000)}:${JSON.stringify([flowDomains, serverNames, query.from, query.to])}`, () => {
        const within = startedWithin(query);
        const inRange = entries.filter(within).map((e) => e.summary);
        return totalsAndDomains({ sessions: inRange, shadowDecisions: 0, flows: flowDomains, servers: serverNames }, now).domains;
      })
    : all.domains;
  const totals = filtered
    ? store.derived(`overviewTotals:${Math.floor(now / 60_000)}:${JSON.stringify([flowDomains, serverNames, query])}`, () =>
        totalsAndDomains(
          {
            sessions: chosen.map((e) => e.summary!),
            shadowDecisions: chosen.reduce((n, e) => n + e.shadowDecisions, 0),
            flows: flowDomains.filter((f) => !query.domain || mine(f.domain)),
            servers: serverNames.filter(mine),
          },
          now,
        ).totals,
      )
    : all.totals;
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
    activity: filtered
      ? store.derived(`overviewActivity:${Math.floor(now / 60_000)}:${JSON.stringify(query)}`, () => activityBetween(chosen.map((e) => e.summary!), chartDays(query, now)))
      : store.derived(`overviewActivity:${Math.floor(now / 60_000)}`, () => activity(counts.tallies, now)),
    recent_sessions: (filtered ? chosen : entries).slice(0, OVERVIEW_SESSIONS).map((e) => e.summary!),
    health,
    jobs: jobs.slice(0, OVERVIEW_JOBS),
    drift: driftOf(summaries, driftOffer.offered),
    ...(indexing ? { indexing } : {}),
  };
}
