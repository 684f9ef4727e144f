// The servers list and one server's view (console-api.md §4.15–4.16): each registry entry with what the list
// adds (its sessions, its flow's summary, what the console sees of its command), and the upstreams recorded
// in sessions that no entry names; the probe's flow warnings.
import type { FlowSummary } from '../../shared/flows.ts';
import type { ServerEntry, ServerList, ServerView } from '../../shared/servers.ts';
import type { ToolInfo } from '../../shared/sessions.ts';
import type { DataContext } from './data-context.ts';
import { flowSummary, servedFlows, type ServedFlows } from './flows.ts';
import { mapInSlices, VIEW_SLICE } from './in-slices.ts';
import { discoveredUpstreams, lookAhead, readRegistry, registryVersion, resolvedPath, serverView, viewOf } from './registry.ts';
import { serverViewContext } from './server-context.ts';
import { sessionsByDomain, sessionsOfDomain, sessionSummaries } from './sessions.ts';

/** The flows list's summary of the catalog flow at `path`, or null when the catalog has none there. */
function flowSummaryAt(state: DataContext): (path: string) => Promise<FlowSummary | null> {
  // Many entries may name one flow: each distinct path is summarized once, and the registry read once.
  const summaries = new Map<string, Promise<FlowSummary | null>>();
  let served: Promise<ServedFlows> | undefined;
  const summarize = async (path: string) => {
    const catalog = await state.catalog();
    const file = catalog.flowAt(path);
    return file ? (await flowSummary(state, file, catalog, (served ??= servedFlows(state)))).summary : null;
  };
  return (path) => {
    let hit = summaries.get(path);
    if (hit === undefined) summaries.set(path, (hit = summarize(path)));
    return hit;
  };
}

// A list asked for while the same one is being made (the start's own, another tab) shares it: same registry
// file, same index version.
const making = new WeakMap<DataContext, { key: string; list: Promise<ServerList> }>();

/** Throws RegistryError or RegistryUnreadable when the registry cannot be read. */
export async function serverList(state: DataContext): Promise<ServerList> {
  const key = `${await registryVersion(state.config.dataDir)}|${state.store.version}`;
  const current = making.get(state);
  if (current?.key === key) return current.list;
  const list = makeServerList(state);
  making.set(state, { key, list });
  try {
    return await list;
  } finally {
    if (making.get(state)?.list === list) making.delete(state);
  }
}

async function makeServerList(state: DataContext): Promise<ServerList> {
  const registry = await readRegistry(state.config.dataDir);
  const sessions = await sessionSummaries(state);
  const ctx = serverViewContext(state);
  const summary = flowSummaryAt(state);
  const sessionsOf = sessionsByDomain(sessions);
  const looked = await lookAhead(registry.servers, ctx, summary);
  const items = await mapInSlices(registry.servers, VIEW_SLICE, async (entry) => viewOf(entry, sessionsOf(entry.name), looked, ctx));
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
