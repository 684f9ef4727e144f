// A server removed from the registry waits in the trash as the entries it was, in servers.json's own form
// (console/trash/<time>/removed-server.json), so that the trash restores it into servers.json, with every key
// it had, as sessions and flows are restored to their files.
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorText } from '../../shared/error-text.ts';
import { writeFileAtomic } from './atomic.ts';
import { TrashError } from './trash.ts';

/** The one file of a removed server's trash folder. */
export const REMOVED_SERVER_FILE = 'removed-server.json';

/** A trash folder of its own, named for `nowMs` or the first free millisecond after it. */
async function freshFolder(dataDir: string, nowMs: number): Promise<string> {
  const root = join(dataDir, 'console', 'trash');
  await mkdir(root, { recursive: true });
  for (let ms = nowMs; ; ms++) {
    const folder = join(root, String(ms));
    try {
      await mkdir(folder);
      return folder;
    } catch (err) {
      // Another delete in the same millisecond has that folder: a restore takes a folder whole.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Writes the removed entries' registry text into a trash folder of its own; answers the file's path. */
export async function trashRemovedServer(dataDir: string, registryText: string, nowMs: number): Promise<string> {
  try {
    const file = join(await freshFolder(dataDir, nowMs), REMOVED_SERVER_FILE);
    await writeFileAtomic(file, registryText);
    return file;
  } catch (err) {
    throw new TrashError(`keeping the removed server in the trash: ${errorText(err)}`, false);
  }
}

/** Takes back what trashRemovedServer wrote, when the removal itself failed. */
export async function untrashRemovedServer(file: string): Promise<void> {
  await rm(dirname(file), { recursive: true, force: true }).catch(() => {});
}
