// The one place the stream reaches the store: every readable session's log, with when it started, from the
// summaries the console keeps current (data/sessions.ts) and the catalog's files.
import type { SessionFile } from '../data/catalog.ts';
import { sessionSummaries } from '../data/sessions.ts';
import type { State } from '../state.ts';

export interface LoggedSession {
  file: SessionFile;
  startedMs: number;
}

export async function loggedSessions(state: State): Promise<LoggedSession[]> {
  const [summaries, catalog] = await Promise.all([sessionSummaries(state), state.catalog()]);
  const out: LoggedSession[] = [];
  for (const e of summaries.entries) {
    const file = catalog.session(e.summary.key);
    if (file) out.push({ file, startedMs: e.summary.started_unix_ms });
  }
  return out;
}
