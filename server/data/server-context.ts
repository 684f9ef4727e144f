// How this console looks at a registry entry: paths resolve against its data directory and home, the proxy
// binary is the one it found, and a server's flow is loaded in the worker pool, once per version of its file
// (the overview and the servers list ask for every server's flow on every answer; a worker round trip each,
// or a worker's start when the pool has let its workers go, made a page's first requests wait).
import { stat } from 'node:fs/promises';
import { pathLookup, type PathLookup } from '../path-search.ts';
import type { DataContext } from './data-context.ts';
import { statStamp } from '../store/stamp.ts';
import { pathsSeen } from './paths.ts';
import { NOT_LOADED, type FlowFacts, type ViewContext } from './registry.ts';

/** The facts of the flow at `path`, from the cache while its file is unchanged, else from the pool. */
async function flowFactsAt(state: DataContext, path: string, lookup: PathLookup): Promise<FlowFacts> {
  // Many flows named and not there cost a listing of their folder, not a failed stat each.
  if (!(await lookup.fileAt(path))) return NOT_LOADED;
  const st = await stat(path).catch(() => null);
  // Not a regular file (links followed): what the task would answer, without it.
  if (!st?.isFile()) return NOT_LOADED;
  const stamp = statStamp(st);
  const cache = state.caches.serverFlows;
  const hit = cache.get(path, stamp);
  if (hit) return hit;
  const r = await state.pool.run('serverFlowTask', { path });
  const facts: FlowFacts = r.ok ? r.value : { ...NOT_LOADED, file: true, error: r.message };
  // Kept under the stamp taken before the read: a file that changed meanwhile is read again next time.
  cache.set(path, stamp, facts);
  return facts;
}

/** One request's view context: PATH, flow facts and resolved paths are looked up once per distinct name. */
export function serverViewContext(state: DataContext): ViewContext {
  const facts = new Map<string, Promise<FlowFacts>>();
  const lookup = pathLookup(process.env.PATH);
  return {
    dataDir: state.config.dataDir,
    home: state.config.home,
    lookup,
    seen: pathsSeen(),
    proxyBeside: state.config.proxy?.path ?? null,
    flowFacts(path) {
      // Many entries may name one flow: each distinct path is looked at once per view.
      let hit = facts.get(path);
      if (hit === undefined) facts.set(path, (hit = flowFactsAt(state, path, lookup)));
      return hit;
    },
  };
}
