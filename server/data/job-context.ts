// What the job planner (jobs/plan.ts) needs to know of this console: its directories, which keys are set,
// and the flows of the catalog (loaded through the flows area's cache, parsed in the pool).
import type { PlanContext } from '../jobs/plan.ts';
import type { DataContext } from './data-context.ts';
import { loadFlowEntry } from './flows.ts';

export async function planContext(state: DataContext): Promise<PlanContext> {
  const catalog = await state.catalog();
  const { config } = state;
  return {
    dataDir: config.dataDir,
    home: config.home,
    keySet: config.keySet || config.keyFileSet,
    redactSaltSet: config.redactSaltSet,
    flow: (key) => catalog.flow(key),
    offer: (command) => state.commands.offer(command),
    // Through the flows area's cache (parsed in the pool): a flow the list has loaded is not parsed again.
    flowDomain: async (path) => {
      const file = catalog.flowAt(path);
      if (!file) throw new Error(`${path} is not in the data directory's flows`);
      const entry = await loadFlowEntry(state, file);
      if (!entry.flow) throw new Error(entry.error ?? 'unknown error');
      return entry.flow.domain;
    },
  };
}
