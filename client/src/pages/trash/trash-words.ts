// How the Trash page names an item: its kind, and a removed server by its name, anything else by its path.
import type { TrashEntry } from '../../../../shared/trash.ts';

export const KIND = { session: 'Session', flow: 'Flow', server: 'Server', other: 'File' } as const;

export const shownAs = (e: TrashEntry) => e.server ?? e.path;
