// Every readable session's summary with the index's extra fields (the tools called, the shadow decisions,
// the flow's sites), for the views computed over all sessions: the closest recorded session, a flow's
// evidence, savings. Read from the store's index and made once per version of it.
import type { IndexedSummary } from '../engine/sessions.ts';
import type { State } from '../state.ts';
import { sessionSummaries } from './sessions.ts';

/** Readable sessions, newest first, each with the index's extra fields (shared: do not change). */
export async function allSummaries(state: State): Promise<readonly IndexedSummary[]> {
  const { entries } = await sessionSummaries(state);
  return state.store.derived('indexedSummaries', () =>
    entries.map((e) => {
      const s: IndexedSummary = { ...e.summary!, tools_called: e.tools as string[], shadow_decisions: e.shadowDecisions };
      if (e.flowSites) s.flow_sites = e.flowSites as IndexedSummary['flow_sites'];
      return s;
    }),
  );
}
