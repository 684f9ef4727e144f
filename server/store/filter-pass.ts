// The search filters of the sessions the cold index read, made once it is done, in the index's lane (at its
// lower priority), a thousand sessions a task: made with each summary they would cost the cold index more
// than a third again (docs/benchmarks.md). The search reads in full every session without one meanwhile. A
// filter is kept only if the session's stamp is still the one its summary was made from (the task checks
// it before reading, the index when it takes the answer).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Pool } from '../workers/pool.ts';
import type { PutOff } from './put-off.ts';
import { packItems } from './index-wire.ts';
import { FILTER_BYTES } from './search-filters.ts';
import type { SessionEntry, SessionIndex } from './session-index.ts';

const PER_TASK = 1_000;
/** Sessions looked at per turn of the event loop for those that lack a filter (a million are, after a restart). */
const LOOKED_AT_PER_TURN = 50_000;

/** The readable sessions without a filter, as the list held them when asked (looked through a piece per turn). */
async function missingFilters(sessions: SessionIndex, closed: () => boolean, piece: number): Promise<SessionEntry[]> {
  const all = sessions.readable.slice();
  const out: SessionEntry[] = [];
  for (let from = 0; from < all.length && !closed(); from += piece) {
    if (from > 0) await nextTurn();
    const to = Math.min(all.length, from + piece);
    for (let i = from; i < to; i++) {
      const e = all[i]!;
      if (e.inIndex && e.readable && e.filterSlot < 0 && e.stamp !== null) out.push(e);
    }
  }
  return out;
}

/**
 * Makes the filters the readable sessions lack, each task once `putOff` gives it its turn; resolves when done,
 * or at once once `closed()`.
 */
export async function makeMissingFilters(pool: Pool, sessions: SessionIndex, putOff: PutOff, closed: () => boolean, piece = LOOKED_AT_PER_TURN): Promise<void> {
  const missing = await missingFilters(sessions, closed, piece);
  // Sessions that get none (too big, or a filter too full to rule anything out) are asked again at each start, but
  // only a filter made is a change the saved index must take in.
  let made = 0;
  for (let i = 0; i < missing.length && !closed(); i += PER_TASK) {
    await putOff.turn();
    if (closed()) break;
    const part = missing.slice(i, i + PER_TASK);
    const stamps = part.map((e) => e.stamp ?? '');
    // Packed as the index's batches are (one buffer, not a thousand objects cloned on the event loop).
    const items = packItems(part.map((e, j) => ({ key: e.key, rel: e.rel, path: e.path, flowLog: e.flowLog, confirmLog: e.confirmLog, known: stamps[j]! })));
    // A failed task leaves its sessions without a filter: they are searched in full.
    const answer = await pool.run('searchFiltersTask', items, 'index').catch(() => null);
    if (answer === null || closed()) continue;
    part.forEach((e, j) => {
      if (!answer.made[j]) return;
      sessions.setFilter(e, stamps[j]!, answer.filters.subarray(j * FILTER_BYTES, (j + 1) * FILTER_BYTES));
      made++;
    });
  }
  if (made > 0) sessions.noteFiltersMade();
}
