// A job that may write over a file (learn or promote with overwrite) first moves the old one to the trash,
// at its relative path, as a delete does; nothing is destroyed. When the job ends with nothing written
// there, the old file goes back where it was.
import { lstat, mkdir, readdir, rename, rmdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Replaced } from '../../shared/jobs.ts';
import { moveToTrash } from '../data/trash.ts';

/** Moves `path` (absolute, in the data directory) to the trash if something is there; what was moved, or null. */
export async function setAside(dataDir: string, path: string, nowMs: number): Promise<Replaced | null> {
  if (!(await lstat(path).catch(() => null))) return null;
  const rel = relative(dataDir, path).split(sep).join('/');
  // A folder of this millisecond may hold a file at this path already: never rename over it.
  let at = nowMs;
  while (await lstat(join(dataDir, 'console', 'trash', String(at), rel)).catch(() => null)) at++;
  await moveToTrash(dataDir, [rel], at);
  return { path: rel, trash_id: String(at) };
}

/** Puts `replaced` back when nothing took its place; true if it went back. */
export async function putBackIfUnused(dataDir: string, replaced: Replaced): Promise<boolean> {
  const original = join(dataDir, replaced.path);
  if (await lstat(original).catch(() => null)) return false;
  const folder = join(dataDir, 'console', 'trash', replaced.trash_id);
  await mkdir(dirname(original), { recursive: true });
  await rename(join(folder, replaced.path), original);
  await removeEmptyUp(dirname(join(folder, replaced.path)), dirname(folder));
  return true;
}

/** Removes `dir` and its parents up to (not including) `stop` while they are empty. */
async function removeEmptyUp(dir: string, stop: string): Promise<void> {
  for (let d = dir; d !== stop && d.startsWith(stop + sep); d = dirname(d)) {
    if ((await readdir(d).catch(() => ['?'])).length > 0) return;
    await rmdir(d).catch(() => {});
  }
}
