// Every readable session's summary, as the index holds it (with the tools called and the flow's sites), for
// the views computed over all sessions: the closest recorded session, a flow's evidence, savings. This is
// the one place those views get their summaries from, so the live index can take its place here alone.
import type { IndexedSummary } from '../engine/sessions.ts';
import type { State } from '../state.ts';
import { sessionSummaries } from './sessions.ts';

/** Readable sessions, newest first, each with the index's extra fields. */
export async function allSummaries(state: State): Promise<readonly IndexedSummary[]> {
  return (await sessionSummaries(state)).indexed as IndexedSummary[];
}
