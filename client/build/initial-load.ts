// A vite plugin that adds up, after the bundle is written, the gzip size of the JavaScript a first visit
// loads: the entry chunk and every chunk it imports statically (lazy routes are left out). It prints the
// figure and fails the build when it is over the limit.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

interface ChunkLike { type: 'chunk'; code: string; imports: string[]; isEntry: boolean; fileName: string }
interface AssetLike { type: 'asset'; fileName: string; source: string | Uint8Array }

export function initialLoadSize(limitBytes: number): Plugin {
  return {
    name: 'engine-console:initial-load-size',
    apply: 'build',
    writeBundle(options, bundle) {
      const items = bundle as unknown as Record<string, ChunkLike | AssetLike>;
      if (options.dir) pruneAssets(options.dir, new Set(Object.keys(items)));
      const seen = new Set<string>();
      const queue = Object.values(items).filter((c): c is ChunkLike => c.type === 'chunk' && c.isEntry).map((c) => c.fileName);
      let gzip = 0;
      let raw = 0;
      while (queue.length > 0) {
        const name = queue.pop()!;
        if (seen.has(name)) continue;
        seen.add(name);
        const chunk = items[name];
        if (!chunk || chunk.type !== 'chunk') continue;
        raw += Buffer.byteLength(chunk.code);
        gzip += gzipSync(chunk.code, { level: 9 }).length;
        queue.push(...chunk.imports);
      }
      let css = 0;
      for (const item of Object.values(items)) {
        if (item.type === 'asset' && item.fileName.endsWith('.css')) css += gzipSync(item.source).length;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(
        `initial load: ${kb(gzip)} gzip JS in ${seen.size} chunk(s) (${kb(raw)} raw), ${kb(css)} gzip CSS; limit ${kb(limitBytes)} gzip JS`,
      );
      if (gzip > limitBytes) this.error(`the initial load is ${kb(gzip)} gzip JS, over the ${kb(limitBytes)} limit`);
    },
  };
}

/**
 * The build keeps the previous build's hashed files for a few minutes (the out dir is not emptied), so a page
 * that loaded the old index.html can still fetch its lazy chunks while a rebuild lands; older ones go.
 */
export const KEEP_OLD_ASSETS_MS = 10 * 60_000;

function pruneAssets(outDir: string, current: Set<string>): void {
  const dir = join(outDir, 'assets');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (current.has(`assets/${name}`)) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > KEEP_OLD_ASSETS_MS) rmSync(file, { force: true });
    } catch {
      /* gone already */
    }
  }
}
