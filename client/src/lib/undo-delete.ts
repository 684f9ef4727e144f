// Undo for the delete toasts of sessions and flows (issue 15): the delete answers only {ok}, so the trash
// folder is found by the path that went, newest first, and restored whole (a session with its companions).
import { getTrash, restoreTrash } from '../api/endpoints.ts';
import { toast } from '../stores/toasts.ts';
import { errorText } from '../../../shared/error-text.ts';

/** How long a delete toast offers Undo. */
export const UNDO_MS = 12_000;

export async function undoDelete(path: string, what: string, then?: () => void): Promise<void> {
  try {
    const { items } = await getTrash();
    const entry = items.find((e) => e.files.some((f) => f.path === path));
    if (!entry) throw new Error(`${path} is no longer in the trash`);
    await restoreTrash(entry.id);
    toast({ kind: 'success', title: `${what} restored`, message: path });
    then?.();
  } catch (err) {
    toast({ kind: 'error', title: `${what} not restored`, message: errorText(err) });
  }
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
