// A job that may write over a file (learn or promote with overwrite) first moves the old one to the trash,
// at its relative path, as a delete does; nothing is destroyed. When the job ends with nothing written
// there, the old file goes back where it was. A file the CLI also reads (stage's staged flow) is copied to
// the trash instead, and the copy dropped when the job left the file as it was.
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Replaced } from '../../shared/jobs.ts';
import { moveToTrash } from '../data/trash.ts';

/**
 * Keeps `path` (absolute, in the data directory) in the trash if a file is there, moved or copied; what was
 * kept, or null.
 */
export async function setAside(dataDir: string, path: string, nowMs: number, keep: 'move' | 'copy'): Promise<Replaced | null> {
  const found = await lstat(path).catch(() => null);
  if (!found || (keep === 'copy' && !found.isFile())) return null;
  const rel = relative(dataDir, path).split(sep).join('/');
  // A folder of this millisecond may hold a file at this path already: never write over it.
  let at = nowMs;
  while (await lstat(join(dataDir, 'console', 'trash', String(at), rel)).catch(() => null)) at++;
  if (keep === 'move') {
    await moveToTrash(dataDir, [rel], at);
  } else {
    const copy = join(dataDir, 'console', 'trash', String(at), rel);
    await mkdir(dirname(copy), { recursive: true });
    await copyFile(path, copy, constants.COPYFILE_EXCL);
  }
  return { path: rel, trash_id: String(at) };
}

/** Drops the trash's copy of `replaced` (the job left the file as it was, so nothing was replaced). */
export async function dropCopy(dataDir: string, replaced: Replaced): Promise<void> {
  const folder = join(dataDir, 'console', 'trash', replaced.trash_id);
  await rm(join(folder, replaced.path));
  await removeEmptyUp(dirname(join(folder, replaced.path)), dirname(folder));
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
