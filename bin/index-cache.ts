// Where the session index is kept between runs: --index-cache, else ENGINE_CONSOLE_INDEX_CACHE, else
// $XDG_CACHE_HOME/engine-console, else ~/.cache/engine-console; `off` keeps none. Never inside the data
// directory, which holds only what the spec lists as the console's. A read-only console reads a saved index
// but never writes or makes one.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { SavedIndexOptions } from '../server/store/index-saver.ts';
import { ensureCacheDir, savedIndexPath } from '../server/store/persisted-index.ts';
import { FatalError, type Options } from './options.ts';

export function savedIndexOf(
  options: Options,
  env: NodeJS.ProcessEnv,
  home: string | null,
  dataDir: string,
  warn: (line: string) => void,
): SavedIndexOptions | null {
  const given = options.indexCache ?? (env.ENGINE_CONSOLE_INDEX_CACHE?.trim() || null);
  if (given === 'off') return null;
  const xdg = env.XDG_CACHE_HOME?.trim();
  const dir = given !== null ? resolve(given) : xdg && isAbsolute(xdg) ? join(xdg, 'engine-console') : home !== null ? join(home, '.cache', 'engine-console') : null;
  if (dir === null) return null;
  const inside = relative(dataDir, dir);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
    throw new FatalError(`the index cache ${dir} is inside the data directory, where the console keeps nothing of its own: pass --index-cache with another directory, or off`);
  }
  if (options.readOnly) return existsSync(dir) ? { file: savedIndexPath(dir, dataDir), write: false } : null;
  const why = ensureCacheDir(dir);
  if (why !== null) {
    warn(`engine-console: the session index is not kept between runs: ${why}`);
    return null;
  }
  return { file: savedIndexPath(dir, dataDir), write: true };
}
