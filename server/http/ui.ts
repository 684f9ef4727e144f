// The browser UI (spec §1, console-api.md §1.6): console/dist served without the token, because it holds no
// data. Hashed assets are cached for a year; everything else is revalidated. A client route (anything that
// does not look like a build file) gets index.html; without a build, a short page says the API is up.
// A production start keeps the files in memory after the first read; a development start reads the disk
// on every request, so a rebuild shows at once.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { Context, Next } from 'koa';
import { methodNotAllowed } from './errors.ts';
import { setContentType } from './content-type.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.map': 'application/json', '.json': 'application/json', '.txt': 'text/plain', '.xml': 'text/xml',
  '.ico': 'image/x-icon', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.webp': 'image/webp', '.avif': 'image/avif', '.woff': 'font/woff',
  '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf', '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};
const BUILD_EXTENSIONS = new Set(Object.keys(TYPES).map((e) => e.slice(1)));

const NO_UI_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>engine console</title>
<style>
  :root { color-scheme: light dark; }
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; }
  code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
  pre { padding: 0.75rem 1rem; border-radius: 6px; background: rgba(127, 127, 127, 0.12); overflow-x: auto; }
</style>
</head>
<body>
<h1>engine console</h1>
<p>The API is up: <a href="/api/health"><code>/api/health</code></a>. This build of <code>engine-console</code> has no UI in it.</p>
<p>Build the UI, then start the console again, which serves it:</p>
<pre>npm ci &amp;&amp; npm run build
npm start</pre>
<p>The API is documented in <code>README.md</code>.</p>
</body>
</html>
`;

/** Does a missing path look like a file of the build (404) rather than a client route (index.html)? */
export function looksLikeBuildFile(rel: string): boolean {
  if (rel.startsWith('assets/')) return true;
  if (rel.includes('/')) return false;
  const ext = extname(rel).slice(1).toLowerCase();
  return BUILD_EXTENSIONS.has(ext);
}

interface UiFile {
  body: Buffer;
  type: string;
}

export function serveUi(uiDir: string | null, fromDisk: boolean) {
  const memory = new Map<string, UiFile | null>();
  let root: string | null = null;

  async function read(rel: string): Promise<UiFile | null> {
    if (uiDir === null) return null;
    if (!fromDisk && memory.has(rel)) return memory.get(rel) ?? null;
    let file: UiFile | null = null;
    try {
      root ??= await realpath(uiDir);
      const full = await realpath(join(root, rel));
      // Never follow a link out of the build.
      if (full.startsWith(root + sep) && (await stat(full)).isFile()) {
        file = { body: await readFile(full), type: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream' };
      }
    } catch {
      file = null;
    }
    if (!fromDisk) memory.set(rel, file);
    return file;
  }

  return async function ui(ctx: Context, next: Next): Promise<void> {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed('the UI is read with GET');
    const rel = ctx.path.replace(/^\/+/, '');
    const parts = rel.split('/');
    if (parts.some((p) => p === '..' || p === '.' || p.includes('\\'))) {
      ctx.status = 404;
      setContentType(ctx, 'text');
      ctx.body = 'not found';
      return;
    }
    const wanted = rel === '' ? 'index.html' : rel;
    const file = await read(wanted);
    if (file) {
      ctx.set('Cache-Control', wanted.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      // Set as is, before the body (which Koa would otherwise type): ctx.type would add a charset the build
      // files do not declare.
      ctx.set('Content-Type', file.type);
      ctx.body = file.body;
      return;
    }
    if (rel !== '' && looksLikeBuildFile(wanted)) {
      ctx.status = 404;
      setContentType(ctx, 'text');
      ctx.body = 'not found';
      return;
    }
    const index = await read('index.html');
    ctx.set('Cache-Control', 'no-cache');
    if (index) {
      ctx.set('Content-Type', 'text/html');
      ctx.body = index.body;
    } else {
      setContentType(ctx, 'html');
      ctx.body = NO_UI_PAGE;
    }
  };
}
