// What is in the trash, and the two ways out of it: restoring one folder (each file back to the relative
// path it came from, all or none) and emptying the whole trash. The trash itself is written by trash.ts.
import type { Dirent } from 'node:fs';
import { lstat, mkdir, readFile, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TrashEntry, TrashFile, TrashKind, TrashList } from '../../shared/trash.ts';
import { PathError, resolveRequestPath } from './paths.ts';
import { TrashError } from './trash.ts';
import { RegistryError, ServerTakenAgain, parseRegistry, restoreRemovedServers } from './registry.ts';
import { REMOVED_SERVER_FILE } from './server-trash.ts';
import { errorText } from '../../shared/error-text.ts';
import { CONFIRM_LOG, FLOW_FILE, FLOW_LOG, JSONL } from '../store/log-names.ts';

/** Restoring would write over something at the original path. */
export class TrashConflict extends Error {}
/** No such trash folder. */
export class TrashMissing extends Error {}

const trashRoot = (dataDir: string) => join(dataDir, 'console', 'trash');

/** Files (and links, as links) under `dir`, as `/`-joined paths relative to it, sorted. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) out.push(...(await filesUnder(join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out.sort();
}

const isCompanion = (p: string) => p.endsWith(FLOW_LOG) || p.endsWith(CONFIRM_LOG);

/** What one delete moved: the session log (companions ride along) or the flow, else the first file. */
function classify(paths: readonly string[]): { kind: TrashKind; path: string } {
  const log = paths.find((p) => p.endsWith(JSONL) && !isCompanion(p));
  if (log !== undefined) return { kind: 'session', path: log };
  const flow = paths.find((p) => p.endsWith(FLOW_FILE));
  if (flow !== undefined) return { kind: 'flow', path: flow };
  return { kind: 'other', path: paths[0] ?? '' };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The names of the servers registered now (asked only when the trash holds a removed server). */
export type RegisteredNames = () => Promise<ReadonlySet<string>>;

/** A removed server's folder: its name, `taken` while one of that name is registered again. */
async function serverEntryOf(folder: string, id: string, registered: RegisteredNames): Promise<TrashEntry | null> {
  const file = join(folder, REMOVED_SERVER_FILE);
  const text = await readFile(file, 'utf8').catch(() => null);
  const st = await lstat(file).catch(() => null);
  let names: string[];
  try {
    names = text === null ? [] : parseRegistry(text).servers.map((s) => s.name);
  } catch {
    return null;
  }
  const name = names[0];
  if (name === undefined) return null;
  const now = await registered();
  const taken = names.some((n) => now.has(n));
  return { id, deleted_unix_ms: Number(id), kind: 'server', path: 'servers.json', files: [{ path: 'servers.json', size_bytes: st?.size ?? 0, taken }], server: name };
}

/** Whether a trash folder's files are a removed server's. */
const isRemovedServer = (paths: readonly string[]) => paths.length === 1 && paths[0] === REMOVED_SERVER_FILE;

async function entryOf(dataDir: string, id: string, registered: RegisteredNames): Promise<TrashEntry | null> {
  const folder = join(trashRoot(dataDir), id);
  const paths = await filesUnder(folder);
  if (paths.length === 0) return null;
  if (isRemovedServer(paths)) return serverEntryOf(folder, id, registered);
  const files: TrashFile[] = [];
  for (const path of paths) {
    const st = await lstat(join(folder, path)).catch(() => null);
    files.push({ path, size_bytes: st?.size ?? 0, taken: await exists(join(dataDir, path)) });
  }
  return { id, deleted_unix_ms: Number(id), ...classify(paths), files };
}

/** Every trash folder that holds a file, newest first. */
export async function listTrash(dataDir: string, registered: RegisteredNames): Promise<TrashList> {
  let names: string[];
  try {
    names = (await readdir(trashRoot(dataDir), { withFileTypes: true })).filter((e) => e.isDirectory() && /^\d+$/.test(e.name)).map((e) => e.name);
  } catch {
    names = [];
  }
  const items: TrashEntry[] = [];
  let registeredNow: Promise<ReadonlySet<string>> | undefined;
  const registeredOnce = () => (registeredNow ??= registered());
  for (const id of names) {
    const entry = await entryOf(dataDir, id, registeredOnce);
    if (entry) items.push(entry);
  }
  items.sort((a, b) => b.deleted_unix_ms - a.deleted_unix_ms || (a.id < b.id ? 1 : -1));
  return { items, size_bytes: items.reduce((n, e) => n + e.files.reduce((m, f) => m + f.size_bytes, 0), 0) };
}

/** Moves every file of folder `id` back; refuses (TrashConflict) before moving any when a path is taken. */
export async function restoreFromTrash(dataDir: string, id: string): Promise<string[]> {
  const folder = join(trashRoot(dataDir), id);
  const paths = await filesUnder(folder);
  if (paths.length === 0) throw new TrashMissing(`nothing in the trash as ${id}`);
  if (isRemovedServer(paths)) return restoreServer(dataDir, folder);
  const targets: string[] = [];
  for (const rel of paths) {
    let target: string;
    try {
      target = resolveRequestPath(rel, { dataDir, home: null });
    } catch (err) {
      if (err instanceof PathError) throw new TrashError(`restoring ${rel}: ${err.message}`, true);
      throw err;
    }
    if (await exists(target)) throw new TrashConflict(`${rel} exists again: move or delete it first, then restore`);
    targets.push(target);
  }
  const moved: number[] = [];
  try {
    for (let i = 0; i < paths.length; i++) {
      await mkdir(dirname(targets[i]!), { recursive: true });
      await rename(join(folder, paths[i]!), targets[i]!);
      moved.push(i);
    }
  } catch (err) {
    // All or none: what already went back returns to the trash.
    for (const i of moved.reverse()) await rename(targets[i]!, join(folder, paths[i]!)).catch(() => {});
    throw new TrashError(`restoring from the trash: ${errorText(err)}`, false);
  }
  await removeEmptyDirs(folder);
  return paths;
}

/** Puts a removed server back into servers.json (refused while its name is taken), then empties its folder. */
async function restoreServer(dataDir: string, folder: string): Promise<string[]> {
  const file = join(folder, REMOVED_SERVER_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new TrashError(`reading the removed server: ${errorText(err)}`, false);
  }
  try {
    await restoreRemovedServers(dataDir, text);
  } catch (err) {
    if (err instanceof ServerTakenAgain) throw new TrashConflict(err.message);
    if (err instanceof RegistryError) throw new TrashError(err.message, false);
    throw err;
  }
  await rm(file, { force: true });
  await removeEmptyDirs(folder);
  return ['servers.json'];
}

/** Removes `dir` and its folders when no file is left in them (rmdir refuses a folder that is not empty). */
async function removeEmptyDirs(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await removeEmptyDirs(join(dir, e.name));
  await rmdir(dir).catch(() => {});
}

/** Empties the trash (the user's choice): how many folders went. */
export async function emptyTrash(dataDir: string): Promise<number> {
  const root = trashRoot(dataDir);
  const { items } = await listTrash(dataDir, async () => new Set());
  try {
    await rm(root, { recursive: true, force: true });
  } catch (err) {
    throw new TrashError(`emptying the trash: ${errorText(err)}`, false);
  }
  return items.length;
}
