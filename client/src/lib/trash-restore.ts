// Restoring several trash items at once: each through its own restore, in list order; one refused (its path
// taken again) keeps its reason and does not stop the others.
import type { TrashEntry } from '../../../shared/trash.ts';
import { errorText } from '../../../shared/error-text.ts';

export interface BulkRestoreOutcome {
  restored: TrashEntry[];
  /** Each refused item's id → why, as the server said it. */
  refused: Record<string, string>;
}

/** The ticked items still listed, in list order (a tick on an item gone from the list is dropped). */
export const tickedEntries = (items: readonly TrashEntry[], ticked: readonly string[]) => items.filter((e) => ticked.includes(e.id));

export async function restoreEach(entries: readonly TrashEntry[], restore: (id: string) => Promise<unknown>): Promise<BulkRestoreOutcome> {
  const outcome: BulkRestoreOutcome = { restored: [], refused: {} };
  for (const e of entries) {
    try {
      await restore(e.id);
      outcome.restored.push(e);
    } catch (err) {
      outcome.refused[e.id] = errorText(err);
    }
  }
  return outcome;
}

/** The paths that came back: their delete toasts' Undo would now fail. */
export const restoredPaths = (restored: readonly TrashEntry[]) => restored.flatMap((e) => e.files.map((f) => f.path));
