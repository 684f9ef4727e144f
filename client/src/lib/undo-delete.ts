// Undo for the delete toasts of sessions, flows and servers: a delete answers only {ok}, so the trash folder
// is found by the path that went (a server: by its name), newest first, and restored whole (a session with
// its companions).
import type { TrashEntry } from '../../../shared/trash.ts';
import { getTrash, restoreTrash } from '../api/endpoints.ts';
import { dismiss, toast, toasts } from '../stores/toasts.ts';
import { errorText } from '../../../shared/error-text.ts';

/** How long a delete toast offers Undo. */
export const UNDO_MS = 12_000;

/** The delete toasts still showing, newest last: what `u` undoes, and what a restore elsewhere retires. */
const pending: { toastId: number; paths: string[]; run: () => void }[] = [];

function showing(): typeof pending {
  const ids = new Set(toasts().map((t) => t.id));
  for (let i = pending.length - 1; i >= 0; i--) if (!ids.has(pending[i]!.toastId)) pending.splice(i, 1);
  return pending;
}

export async function undoDelete(paths: string[], what: string, then?: () => void): Promise<void> {
  try {
    const { items } = await getTrash();
    // Each path's newest trash entry (a bulk delete moved each item on its own).
    const ids = new Set<string>();
    for (const path of paths) {
      const entry = items.find((e) => e.files.some((f) => f.path === path));
      if (!entry) throw new Error(`${path} is no longer in the trash`);
      ids.add(entry.id);
    }
    for (const id of ids) await restoreTrash(id);
    toast({ kind: 'success', title: `${what} restored`, message: paths.length === 1 ? paths[0] : `${paths.length} items` });
    then?.();
  } catch (err) {
    toast({ kind: 'error', title: `${what} not restored`, message: errorText(err) });
  }
}

/** The success toast of a delete, with Undo, which takes the focus. */
export function deletedToast(what: string, paths: string[], then?: () => void): void {
  const run = () => void undoDelete(paths, what, then);
  const toastId = toast({
    kind: 'success',
    title: `${what} moved to the trash`,
    message: `${paths.length === 1 ? paths[0] : `${paths.length} items`} · Trash lists ${paths.length === 1 ? 'it' : 'them'} until you empty it.`,
    timeout: UNDO_MS,
    action: { label: 'Undo', run, focus: true },
  });
  pending.push({ toastId, paths, run });
}

/** Undoes the newest delete whose toast still shows; false when there is none. */
export function undoLastDelete(): boolean {
  const last = showing().pop();
  if (!last) return false;
  dismiss(last.toastId);
  last.run();
  return true;
}

/** Something came back from the trash another way: its delete toast's Undo would now fail, so it goes. */
export function retireDeleteToasts(restoredPaths: string[]): void {
  for (const p of [...showing()]) {
    if (p.paths.some((x) => restoredPaths.includes(x))) {
      dismiss(p.toastId);
      pending.splice(pending.indexOf(p), 1);
    }
  }
}

/** Restores the newest trash folder that `find` picks; `shown` names it in the toasts. */
async function undoMatching(find: (e: TrashEntry) => boolean, shown: string, what: string, then?: () => void): Promise<void> {
  try {
    const { items } = await getTrash();
    const entry = items.find(find);
    if (!entry) throw new Error(`${shown} is no longer in the trash`);
    await restoreTrash(entry.id);
    toast({ kind: 'success', title: `${what} restored`, message: shown });
    then?.();
  } catch (err) {
    toast({ kind: 'error', title: `${what} not restored`, message: errorText(err) });
  }
}

/** The toast of a server removed from the registry, with Undo (its entry goes back into servers.json). */
export function removedServerToast(name: string, then?: () => void): void {
  toast({
    kind: 'success',
    title: `Server ${name} removed from the registry`,
    message: 'Its sessions and flows stay where they are. Trash lists it until you empty it.',
    timeout: UNDO_MS,
    action: { label: 'Undo', run: () => void undoMatching((e) => e.kind === 'server' && e.server === name, name, 'Server', then), focus: true },
  });
}
