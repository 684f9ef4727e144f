// Every path named in a request (job fields, a server's flow and record_dir) resolves inside the data
// directory, or inside home when it starts with `~/`; `..` cannot climb out and no symbolic link may lead
// out (console-api.md §3.3). A path that does not exist yet is accepted.
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { insideDir } from '../engine/scan.ts';

export class PathError extends Error {}

export interface PathContext {
  dataDir: string;
  home: string | null;
  /**
   * What one batch of resolutions (a list's thousands of entries) has looked at on disk already: each
   * directory is looked at once per batch, not once per path in it. Absent: every path looks for itself.
   */
  seen?: PathsSeen;
}

/** Disk answers kept for one batch of resolutions: whether a path exists, and where it leads (null: nowhere). */
export interface PathsSeen {
  exists: Map<string, boolean>;
  canonical: Map<string, string | null>;
}

export function pathsSeen(): PathsSeen {
  return { exists: new Map(), canonical: new Map() };
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** realpathSync (null where it fails), asked once per batch. */
function canonicalIn(path: string, seen: PathsSeen | undefined): string | null {
  if (seen === undefined) return realpathOrNull(path);
  let hit = seen.canonical.get(path);
  if (hit === undefined) seen.canonical.set(path, (hit = realpathOrNull(path)));
  return hit;
}

/** Where `path` leads when it is there (null: not there, or nowhere), asked once per batch. */
export function canonicalPath(path: string, seen: PathsSeen | undefined): string | null {
  return existsIn(path, seen) ? canonicalIn(path, seen) : null;
}

/** lstatExists, asked once per batch. */
function existsIn(path: string, seen: PathsSeen | undefined): boolean {
  if (seen === undefined) return lstatExists(path);
  let hit = seen.exists.get(path);
  if (hit === undefined) seen.exists.set(path, (hit = lstatExists(path)));
  return hit;
}

/** Lexical normalization that refuses to pop above the root. */
function normalizeStrict(path: string, input: string): string {
  const parts: string[] = [];
  for (const part of path.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw new PathError(`${input}: .. climbs out of the root`);
      parts.pop();
    } else parts.push(part);
  }
  return sep + parts.join(sep);
}

function checkInside(base: string, rest: string, input: string, seen: PathsSeen | undefined): string {
  const joined = normalizeStrict(join(base, rest), input);
  const canonicalBase = canonicalIn(base, seen) ?? normalize(base);
  if (!insideDir(joined, normalize(base))) throw new PathError(`${input}: .. climbs out of ${base}`);
  // The deepest ancestor that exists (as a link or not) must canonicalize inside the base.
  let probe = joined;
  while (!existsIn(probe, seen) && probe !== sep) probe = probe.slice(0, probe.lastIndexOf(sep)) || sep;
  const canonical = canonicalIn(probe, seen);
  if (canonical === null) throw new PathError(`${input}: a symbolic link leads nowhere`);
  if (!insideDir(canonical, canonicalBase)) throw new PathError(`${input}: a symbolic link leads out of ${base}`);
  return joined;
}

function lstatExists(path: string): boolean {
  try {
    // A missing path answers undefined: no error (and its stack) made for the commonest case.
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

export function resolveRequestPath(input: string, ctx: PathContext): string {
  if (input.trim() === '') throw new PathError('the path is empty');
  if (input.includes('\0')) throw new PathError('the path holds a NUL character');
  if (input === '~' || input.startsWith('~/')) {
    if (ctx.home === null) throw new PathError(`${input}: there is no home directory to resolve ~ in`);
    return checkInside(ctx.home, input.slice(1).replace(/^\/+/, ''), input, ctx.seen);
  }
  if (input.startsWith('~')) throw new PathError(`${input}: only ~/ (this user's home directory) is expanded`);
  if (isAbsolute(input)) {
    const abs = normalizeStrict(input, input);
    if (!insideDir(abs, ctx.dataDir)) {
      throw new PathError(
        `${input} is outside the data directory (${ctx.dataDir}): name a path inside it, or one that starts with ~/`,
      );
    }
    return checkInside(ctx.dataDir, abs.slice(ctx.dataDir.length), input, ctx.seen);
  }
  return checkInside(ctx.dataDir, input, input, ctx.seen);
}

/** How the API shows a path: relative under the data directory, `~/…` under home, else in full. */
export function shown(path: string, ctx: PathContext): string {
  if (insideDir(path, ctx.dataDir)) return path === ctx.dataDir ? '.' : path.slice(ctx.dataDir.length + 1).split(sep).join('/');
  if (ctx.home !== null && insideDir(path, ctx.home)) return path === ctx.home ? '~' : `~/${path.slice(ctx.home.length + 1).split(sep).join('/')}`;
  return path;
}

