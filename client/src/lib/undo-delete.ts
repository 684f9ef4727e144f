// Undo for the delete toasts of sessions, flows and servers: a delete answers only {ok}, so the trash folder
// is found by the path that went (a server: by its name), newest first, and restored whole (a session with
// its companions).
import type { TrashEntry } from '../../../shared/trash.ts';
import { getTrash, restoreTrash } from '../api/endpoints.ts';
import { toast } from '../stores/toasts.ts';
import { errorText } from '../../../shared/error-text.ts';

/** How long a delete toast offers Undo. */
export const UNDO_MS = 12_000;

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

export function undoDelete(path: string, what: string, then?: () => void): Promise<void> {
  return undoMatching((e) => e.files.some((f) => f.path === path), path, what, then);
}

/** The success toast of a delete, with Undo. */
export function deletedToast(what: string, path: string, then?: () => void): void {
  toast({
    kind: 'success',
    title: `${what} moved to the trash`,
    message: `${path} · Trash lists it until you empty it.`,
    timeout: UNDO_MS,
    action: { label: 'Undo', run: () => void undoDelete(path, what, then) },
  });
}

/** The toast of a server removed from the registry, with Undo (its entry goes back into servers.json). */
export function removedServerToast(name: string, then?: () => void): void {
  toast({
    kind: 'success',
    title: `Server ${name} removed from the registry`,
    message: 'Its sessions and flows stay where they are. Trash lists it until you empty it.',
    timeout: UNDO_MS,
    action: { label: 'Undo', run: () => void undoMatching((e) => e.kind === 'server' && e.server === name, name, 'Server', then) },
  });
}
