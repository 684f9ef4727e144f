// Deleting never unlinks: files move to console/trash/<time>/<their relative path>, to be emptied when the
// user chooses (console-api.md §3.4). Links move as links.
import { mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorText } from '../../shared/error-text.ts';

export class TrashError extends Error {
  constructor(
    message: string,
    /** true for a refusal (403), false for a failure (500). */
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/** Move each file (relative to the data directory) into one trash folder named for `nowMs`. */
export async function moveToTrash(dataDir: string, rels: readonly string[], nowMs: number): Promise<string> {
  const folder = join(dataDir, 'console', 'trash', String(nowMs));
  for (const rel of rels) {
    if (rel === '' || rel.startsWith('/') || rel.split('/').some((p) => p === '..' || p === '')) {
      throw new TrashError('only files in the data directory go to the trash', true);
    }
    const target = join(folder, rel);
    try {
      await mkdir(dirname(target), { recursive: true });
    } catch (err) {
      throw new TrashError(`creating the trash: ${errorText(err)}`, false);
    }
    try {
      await rename(join(dataDir, rel), target);
    } catch (err) {
      throw new TrashError(`moving ${rel} to the trash: ${errorText(err)}`, false);
    }
  }
  return folder;
}
