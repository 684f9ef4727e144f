// The sites of a server's flow, for a run's counts per site: none when the server has no flow, or its flow
// does not read or load (the run still goes; its calls' sites are then only named).
import { resolvedPath, type StoredEntry } from '../data/registry.ts';
import { serverViewContext } from '../data/server-context.ts';
import type { State } from '../state.ts';

export async function serverFlowSites(state: State, entry: StoredEntry): Promise<string[] | null> {
  if (entry.flow === null) return null;
  const path = resolvedPath(entry.flow, serverViewContext(state));
  if (path === null) return null;
  const r = await state.pool.run('replayFlowSitesTask', { path });
  return r.ok ? r.value : null;
}
