// How this console looks at a registry entry: paths resolve against its data directory and home, the proxy
// binary is the one it found, and a server's flow is loaded in the worker pool, once per version of its file
// (the overview and the servers list ask for every server's flow on every answer; a worker round trip each,
// or a worker's start when the pool has let its workers go, made a page's first requests wait).
import { stat } from 'node:fs/promises';
import type { DataContext } from './data-context.ts';
import { statStamp } from '../store/stamp.ts';
import { NOT_LOADED, type FlowFacts, type ViewContext } from './registry.ts';

export function serverViewContext(state: DataContext): ViewContext {
  return {
    dataDir: state.config.dataDir,
    home: state.config.home,
    searchPath: process.env.PATH ?? '',
    proxyBeside: state.config.proxy?.path ?? null,
    async flowFacts(path) {
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
    },
  };
}
