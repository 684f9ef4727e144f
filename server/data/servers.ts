// The servers list and one server's view (console-api.md §4.15–4.16): each registry entry with what the list
// adds (its sessions, its flow's summary, what the console sees of its command), and the upstreams recorded
// in sessions that no entry names; the probe's flow warnings.
import type { FlowSummary } from '../../shared/flows.ts';
import type { ServerEntry, ServerList, ServerView } from '../../shared/servers.ts';
import type { ToolInfo } from '../../shared/sessions.ts';
import type { DataContext } from './data-context.ts';
import { flowSummary, servedFlows, type ServedFlows } from './flows.ts';
import { VIEW_SLICE } from './in-slices.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { discoveredUpstreams, lookAhead, readRegistry, registryVersion, resolvedPath, serverView, viewOf } from './registry.ts';
import { serverViewContext } from './server-context.ts';
import type { PathsSeen } from './paths.ts';
import { sessionsByDomain, sessionsOfDomain, sessionSummaries } from './sessions.ts';

/** The flows list's summary of the catalog flow at `path`, or null when the catalog has none there. */
function flowSummaryAt(state: DataContext, seen?: PathsSeen): (path: string) => Promise<FlowSummary | null> {
  // Many entries may name one flow: each distinct path is summarized once, and the registry read once.
  const summaries = new Map<string, Promise<FlowSummary | null>>();
  let served: Promise<ServedFlows> | undefined;
  const summarize = async (path: string) => {
    const catalog = await state.catalog();
    const file = catalog.flowAt(path);
    return file ? (await flowSummary(state, file, catalog, (served ??= servedFlows(state, seen)))).summary : null;
  };
  return (path) => {
    let hit = summaries.get(path);
    if (hit === undefined) summaries.set(path, (hit = summarize(path)));
    return hit;
  };
}

/** The list, looked up once: its items are viewed as they are written. */
export interface ServerListParts {
  /** Every field but `items`. */
  rest: Omit<ServerList, 'items'>;
  /** The items' JSON text, a slice of entries viewed per turn of the event loop. */
  itemsText(): AsyncGenerator<string>;
}

// Views turned into text at once: ~50 KB of it, which V8 keeps among its short-lived objects (a text past
// ~128 KB is a large object, and those made the collector compact the whole heap again and again).
const TEXT_SLICE = 100;

// A list asked for while the same one is being looked up (the start's own, another tab) shares it: same
// registry file, same index version.
const making = new WeakMap<DataContext, { key: string; parts: Promise<ServerListParts> }>();

/** Throws RegistryError or RegistryUnreadable when the registry cannot be read. */
export async function serverList(state: DataContext): Promise<ServerListParts> {
  const key = `${await registryVersion(state.config.dataDir)}|${state.store.version}`;
  const current = making.get(state);
  if (current?.key === key) return current.parts;
  const parts = makeServerList(state);
  making.set(state, { key, parts });
  try {
    return await parts;
  } finally {
    if (making.get(state)?.parts === parts) making.delete(state);
  }
}

async function makeServerList(state: DataContext): Promise<ServerListParts> {
  const registry = await readRegistry(state.config.dataDir, state.pool);
  const sessions = await sessionSummaries(state);
  const ctx = serverViewContext(state);
  const sessionsOf = sessionsByDomain(sessions);
  const entries = registry.servers;
  const looked = await lookAhead(entries, ctx, flowSummaryAt(state, ctx.seen));
  const names = entries.map((s) => s.name);
  const discovered = state.store.derived(`discovered:${JSON.stringify(names)}`, () => discoveredUpstreams(sessions.counts.tallies, new Set(names)));
  // Views are made and written a few at a time, never all held: 60k of them kept the collector busy.
  async function* itemsText(): AsyncGenerator<string> {
    for (let i = 0; i < entries.length; i += TEXT_SLICE) {
      const views = entries.slice(i, i + TEXT_SLICE).map((entry) => viewOf(entry, sessionsOf(entry.name), looked, ctx));
      yield JSON.stringify(views).slice(1, -1);
      if ((i + TEXT_SLICE) % VIEW_SLICE === 0 && i + TEXT_SLICE < entries.length) await nextTurn();
    }
  }
  return { rest: { discovered }, itemsText };
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
