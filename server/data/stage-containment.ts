// Staged learning reads and writes NAME.flow.json, NAME.staged.flow.json, NAME.stage.json and every file
// of NAME.history/ beside a flow the scan found inside the data directory; a symbolic link among them could
// still lead out (shop.history -> /elsewhere). Each must resolve inside the data directory, compared by
// real path; a link that leads nowhere is refused too, since writing through it would create a file outside.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { StagePaths } from '../engine/stage.ts';
import { insideDir } from '../engine/scan.ts';
import { shown } from './paths.ts';

/** A staged-learning file that leads out of the data directory; its message names it. */
export class LeadsOut extends Error {}

async function checkOne(path: string, root: string, dataDir: string): Promise<void> {
  const real = await realpath(path).catch(() => null);
  if (real !== null) {
    if (insideDir(real, root)) return;
  } else if (!(await lstat(path).catch(() => null))?.isSymbolicLink()) {
    return;
  }
  throw new LeadsOut(
    `${shown(path, { dataDir, home: null })} is a symbolic link that leads out of the data directory (or nowhere): staged learning reads and writes only inside it, so replace the link with the files themselves`,
  );
}

/** Throws LeadsOut unless every file of the deployment (the history's included) resolves inside `dataDir`. */
export async function checkContained(dataDir: string, paths: StagePaths): Promise<void> {
  const root = await realpath(dataDir).catch(() => dataDir);
  for (const path of [paths.committed, paths.staged, paths.state, paths.history]) await checkOne(path, root, dataDir);
  const names = await readdir(paths.history).catch(() => []);
  for (const name of names) await checkOne(join(paths.history, name), root, dataDir);
}
