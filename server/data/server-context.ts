// How this console looks at a registry entry: paths resolve against its data directory and home, the proxy
// binary is the one it found, and a server's flow is loaded in the worker pool. Shared by the servers and
// overview routes.
import type { State } from '../state.ts';
import { NOT_LOADED, type ViewContext } from './registry.ts';

export function serverViewContext(state: State): ViewContext {
  return {
    dataDir: state.config.dataDir,
    home: state.config.home,
    searchPath: process.env.PATH ?? '',
    proxyBeside: state.config.proxy?.path ?? null,
    async flowFacts(path) {
      const r = await state.pool.run('serverFlowTask', { path });
      return r.ok ? r.value : { ...NOT_LOADED, file: true, error: r.message };
    },
  };
}
