// Which session logs a replay reads: the keys asked for, in that order, or the newest sessions of the server's
// domain (its registry name). An unknown key is named, so the route can answer 404.
import { sessionsOfDomainNewestFirst, sessionSummaries } from '../data/sessions.ts';
import type { State } from '../state.ts';

export type Picked = { ok: true; logs: { key: string; path: string }[] } | { ok: false; missing: string };

export async function pickSessions(state: State, domain: string, keys: readonly string[] | undefined, newest: number): Promise<Picked> {
  const catalog = await state.catalog();
  if (keys !== undefined) {
    const logs: { key: string; path: string }[] = [];
    for (const key of new Set(keys)) {
      const file = catalog.session(key);
      if (!file) return { ok: false, missing: key };
      logs.push({ key, path: file.path });
    }
    return { ok: true, logs };
  }
  const logs: { key: string; path: string }[] = [];
  for (const summary of sessionsOfDomainNewestFirst((await sessionSummaries(state)).entries, domain)) {
    if (logs.length >= newest) break;
    const file = catalog.session(summary.key);
    if (file) logs.push({ key: summary.key, path: file.path });
  }
  return { ok: true, logs };
}
