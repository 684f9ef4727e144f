// The Trash page's restores: one item, or the ticked ones each on its own; why an item was refused stays on
// that item, and what came back retires its delete toasts.
import { createSignal } from 'solid-js';
import type { TrashEntry } from '../../../../shared/trash.ts';
import { restoreTrash } from '../../api/endpoints.ts';
import { createAction } from '../../data/createAction.ts';
import { tick } from '../../lib/compare.ts';
import { plural } from '../../lib/format.ts';
import { restoredPaths, restoreEach, tickedEntries } from '../../lib/trash-restore.ts';
import { retireDeleteToasts } from '../../lib/undo-delete.ts';
import { toast } from '../../stores/toasts.ts';
import { KIND, shownAs } from './trash-words.ts';

export function createTrashRestores(items: () => readonly TrashEntry[], reload: () => void) {
  // Which item the last single restore was for: its spinner shows on that item only.
  const [restoring, setRestoring] = createSignal<string | null>(null);
  // Why each item's last restore was refused, shown on that item.
  const [problems, setProblems] = createSignal<Record<string, string>>({});
  const [ticks, setTicks] = createSignal<string[]>([]);
  const ticked = () => tickedEntries(items(), ticks());

  const single = createAction((e: TrashEntry) => restoreTrash(e.id), {
    success: (_answer, e) => ({ title: `${KIND[e.kind]} restored`, message: shownAs(e) }),
    after: (_answer, e) => {
      retireDeleteToasts(e.files.map((f) => f.path));
      reload();
    },
  });
  const bulk = createAction((entries: TrashEntry[]) => restoreEach(entries, restoreTrash), {
    success: (o) => (o.restored.length === 0 ? null : { title: `${plural(o.restored.length, 'item')} restored`, message: o.restored.map(shownAs).join(', ') }),
    after: (o) => {
      const refused = Object.keys(o.refused);
      if (refused.length > 0) toast({ kind: 'error', title: `${plural(refused.length, 'item')} not restored`, message: 'Why is shown on each one, still ticked.' });
      setProblems(o.refused);
      setTicks(refused);
      retireDeleteToasts(restoredPaths(o.restored));
      reload();
    },
  });
  const busy = () => single.busy() || bulk.busy();

  return {
    ticked,
    isTicked: (id: string) => ticks().includes(id),
    tick: (id: string, on: boolean) => setTicks(tick(ticks(), id, on)),
    tickAll: () => setTicks(items().map((e) => e.id)),
    untick: () => setTicks([]),
    problem: (id: string) => problems()[id] ?? null,
    restoringOne: (id: string) => single.busy() && restoring() === id,
    restoringTicked: bulk.busy,
    async restoreOne(e: TrashEntry): Promise<void> {
      if (busy()) return;
      setRestoring(e.id);
      setProblems(({ [e.id]: _was, ...rest }) => rest);
      await single.run(e);
      const why = single.error();
      if (why !== null) setProblems((p) => ({ ...p, [e.id]: why }));
    },
    restoreTicked(): void {
      if (!busy()) void bulk.run(ticked());
    },
  };
}
