// Bundles the launcher and the worker entry into dist/ with esbuild, so start-up reads a few files instead
// of hundreds of modules. tinypool and open stay external: they load files of their own
// relative to their package.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { summaryFormat } from './summary-format.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const result = await build({
  entryPoints: {
    'bin/engine-console': 'bin/engine-console.ts',
    'workers/tasks': 'server/workers/tasks.ts',
  },
  outdir: 'dist',
  bundle: true,
  // Code loaded on demand (koa-body, on the first change) goes to chunks/ instead of the start-up path.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  minify: !process.env.NO_MINIFY,
  external: ['tinypool', 'open'],
  // Koa's helpers carry two versions of mime-types, each with its own 150 KB database: one (Koa's own, the
  // newer) serves both, and it loads on first use, not at every start (server/http/mime-types-lazy.cjs).
  alias: { 'mime-types': './server/http/mime-types-lazy.cjs' },
  define: { __ENGINE_CONSOLE_VERSION__: JSON.stringify(pkg.version), __SUMMARY_FORMAT__: JSON.stringify(summaryFormat('.')) },
  banner: {
    // Bundled CommonJS dependencies (koa's) call require(); give ESM output one.
    js: "import { createRequire as __engineRequire } from 'node:module'; const require = __engineRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});

// Chunks of earlier builds go once they are ten minutes old (a console started before this build may still
// load its lazy chunks for a while).
const current = new Set(Object.keys(result.metafile.outputs).map((p) => p.replace(/^dist\//, '')));
const stale = Date.now() - 10 * 60_000;
for (const name of readdirSync('dist/chunks')) {
  const file = join('dist/chunks', name);
  if (!current.has(`chunks/${name}`) && statSync(file).mtimeMs < stale) rmSync(file);
}
