// The sessions for the views computed over all of them (the closest recorded session, a flow's evidence):
// the store's readable entries themselves, newest first; each carries its public summary and what only the
// index keeps (the tools called, the flow log's per-site counts). No copy per session is made.
import type { IndexedSession } from '../engine/sessions.ts';
import type { DataContext } from './data-context.ts';
import { sessionSummaries } from './sessions.ts';

/** Readable sessions, newest first (shared: do not change). */
export async function indexedSessions(state: DataContext): Promise<readonly IndexedSession[]> {
  return (await sessionSummaries(state)).entries;
}
