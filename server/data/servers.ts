// The servers list and one server's view (console-api.md §4.15–4.16): each registry entry with what the list
// adds (its sessions, its flow's summary, what the console sees of its command), and the upstreams recorded
// in sessions that no entry names; the probe's flow warnings.
import type { FlowSummary } from '../../shared/flows.ts';
import type { ServerEntry, ServerList, ServerView } from '../../shared/servers.ts';
import type { ToolInfo } from '../../shared/sessions.ts';
import type { DataContext } from './data-context.ts';
import { flowSummary } from './flows.ts';
import { discoveredUpstreams, loadRegistry, resolvedPath, serverView } from './registry.ts';
import { serverViewContext } from './server-context.ts';
import { sessionsOfDomain, sessionSummaries } from './sessions.ts';

/** The flows list's summary of the catalog flow at `path`, or null when the catalog has none there. */
function flowSummaryAt(state: DataContext): (path: string) => Promise<FlowSummary | null> {
  return async (path) => {
    const catalog = await state.catalog();
    const file = catalog.flowAt(path);
    return file ? (await flowSummary(state, file, catalog)).summary : null;
  };
}

/** Throws RegistryError or RegistryUnreadable when the registry cannot be read. */
export async function serverList(state: DataContext): Promise<ServerList> {
  const registry = await loadRegistry(state.config.dataDir);
  const sessions = await sessionSummaries(state);
  const ctx = serverViewContext(state);
  const summary = flowSummaryAt(state);
  const items = await Promise.all(registry.servers.map((entry) => serverView(entry, sessionsOfDomain(sessions, entry.name), summary, ctx)));
  const names = registry.servers.map((s) => s.name);
  const discovered = state.store.derived(`discovered:${JSON.stringify(names)}`, () => discoveredUpstreams(sessions.counts.tallies, new Set(names)));
  return { items, discovered };
}

export async function oneServerView(state: DataContext, entry: ServerEntry): Promise<ServerView> {
  return serverView(entry, sessionsOfDomain(await sessionSummaries(state), entry.name), flowSummaryAt(state), serverViewContext(state));
}

/** The probe's flow warnings: only when the entry's flow resolves and loads. */
export async function probeFlowWarnings(state: DataContext, entry: ServerEntry, tools: ToolInfo[]): Promise<string[]> {
  const path = entry.flow === null ? null : resolvedPath(entry.flow, state.config);
  if (path === null) return [];
  const r = await state.pool.run('probeWarningsTask', { path, tools });
  return r.ok ? r.value : [];
}
