// Finding a program on PATH as a shell does (init-doctor-stage.md §1.3 `which`): the first entry where
// `<dir>/<name>` is a regular file, links followed, exec bit not checked. An entry this process cannot use
// (empty, relative, missing, not a directory, a link loop, unreadable) is skipped, never an error: the
// console must start and answer whatever PATH holds. Nothing here blocks the event loop.
import type { Dirent, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';

/** The entries of a PATH worth searching, in order, each once: absolute and not empty. */
export function searchDirs(pathEnv: string | undefined): string[] {
  const dirs = (pathEnv ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
  return [...new Set(dirs)];
}

/** Whether `name` is one file name (a name with a separator or a dot entry is looked up as a path, not on PATH). */
const plainName = (name: string) => name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0');

const statOrNull = (path: string): Promise<Stats | null> => stat(path).catch(() => null);

/** Whether `path` is a regular file (links followed); false for anything that cannot be looked at. */
export async function isFile(path: string): Promise<boolean> {
  return (await statOrNull(path))?.isFile() === true;
}

/** The first `<dir>/<name>` on PATH that is a regular file, or null; one look per entry, nothing kept. */
export async function findOnPath(name: string, pathEnv: string | undefined): Promise<string | null> {
  if (!plainName(name)) return null;
  for (const dir of searchDirs(pathEnv)) {
    const candidate = join(dir, name);
    if (await isFile(candidate)) return candidate;
  }
  return null;
}

/** What a directory's listing says of a name: a file for sure, or to be looked at (a link, an unknown type). */
type Kind = 'file' | 'look';

/** One PATH entry as last read: its stamp, and its names (null when it can be searched but not listed). */
interface Listing {
  stamp: string;
  names: Map<string, Kind> | null;
}

const dirStamp = (st: Stats) => `${st.dev}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;

function kindOf(d: Dirent): Kind | null {
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'look';
  // A file system that does not say the type answers false to every question.
  const typed = d.isDirectory() || d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice();
  return typed ? null : 'look';
}

// Listings kept by directory, read again only when the directory's stamp changes.
const listings = new Map<string, Listing>();

/** A PATH entry's listing, read again only when its stamp changed; null when it is not a directory. */
async function listingOf(dir: string): Promise<Listing | null> {
  const st = await statOrNull(dir);
  if (!st?.isDirectory()) return null;
  const stamp = dirStamp(st);
  const kept = listings.get(dir);
  if (kept?.stamp === stamp) return kept;
  const listing = await readListing(dir, stamp);
  listings.set(dir, listing);
  return listing;
}

/** A directory's names and kinds as it is now (names null when it cannot be listed). */
async function readListing(dir: string, stamp: string): Promise<Listing> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
  const names = entries === null ? null : new Map<string, Kind>();
  for (const d of entries ?? []) {
    const kind = kindOf(d);
    if (kind !== null) names!.set(d.name, kind);
  }
  return { stamp, names };
}

/** A directory's listing now, without keeping it; null when it is not a directory (or cannot be looked at). */
async function listingNow(dir: string): Promise<Listing | null> {
  const st = await statOrNull(dir);
  return st?.isDirectory() ? readListing(dir, dirStamp(st)) : null;
}

/**
 * Whether `path` is a regular file, told by its directory's listing when it can be: many paths in one
 * directory (or in one that is not there) cost one listing, not a stat each, and a missing file no error.
 */
async function listedFile(path: string, listingIn: (dir: string) => Promise<Listing | null>): Promise<boolean> {
  const name = basename(path);
  if (!plainName(name) || path.endsWith('/')) return isFile(path);
  const listing = await listingIn(dirname(path));
  if (listing === null) return false;
  const kind = listing.names === null ? 'look' : listing.names.get(name);
  return kind === 'file' || (kind === 'look' && (await isFile(path)));
}

/** Lookups of many names against one PATH, each distinct name looked up once. */
export interface PathLookup {
  /** The first `<dir>/<name>` on PATH that is a regular file, or null. */
  find(name: string): Promise<string | null>;
  /** Whether `path` is a regular file, each distinct path (and the directory it is in) looked at once. */
  fileAt(path: string): Promise<boolean>;
}

/**
 * A lookup over PATH as it is now: its directories are listed (again only when one changed since it was
 * last read) on the first `find`, so a name costs a map look instead of a stat per entry.
 */
export function pathLookup(pathEnv: string | undefined): PathLookup {
  let dirs: Promise<{ dir: string; listing: Listing }[]> | null = null;
  const found = new Map<string, Promise<string | null>>();
  const files = new Map<string, Promise<boolean>>();
  const dirListings = new Map<string, Promise<Listing | null>>();
  const listingIn = (dir: string) => {
    let hit = dirListings.get(dir);
    if (hit === undefined) dirListings.set(dir, (hit = listingNow(dir)));
    return hit;
  };
  const fileAt = (path: string) => {
    let hit = files.get(path);
    if (hit === undefined) files.set(path, (hit = listedFile(path, listingIn)));
    return hit;
  };
  const listed = () =>
    (dirs ??= Promise.all(searchDirs(pathEnv).map(async (dir) => ({ dir, listing: await listingOf(dir) }))).then((all) =>
      all.flatMap((d) => (d.listing === null ? [] : [{ dir: d.dir, listing: d.listing }])),
    ));
  const search = async (name: string): Promise<string | null> => {
    if (!plainName(name)) return null;
    for (const { dir, listing } of await listed()) {
      const kind = listing.names === null ? 'look' : listing.names.get(name);
      if (kind === undefined) continue;
      const candidate = join(dir, name);
      if (kind === 'file' || (await fileAt(candidate))) return candidate;
    }
    return null;
  };
  return {
    find(name) {
      let hit = found.get(name);
      if (hit === undefined) found.set(name, (hit = search(name)));
      return hit;
    },
    fileAt,
  };
}
