// The UI files as the console serves them: the no-UI page without a build, index.html for client routes,
// 404 for missing build files, long caching for hashed assets, and no way out of the build folder.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Koa from 'koa';
import { renderErrors } from '../../server/http/errors.ts';
import { looksLikeBuildFile, serveUi } from '../../server/http/ui.ts';
import { tempDir } from '../support/fixtures.ts';

async function serve(uiDir: string | null, fromDisk = false): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  app.use(renderErrors(() => undefined));
  app.use(serveUi(uiDir, fromDisk));
  const server = createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const ui = suite('ui');

ui('without a build, / and client routes answer the page that says the API is up', async () => {
  const { url, server } = await serve(null);
  try {
    for (const path of ['/', '/sessions/abc', '/flows/shop.promoted']) {
      const res = await fetch(url + path);
      assert.is(res.status, 200, path);
      assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.is(res.headers.get('cache-control'), 'no-cache');
      assert.match(await res.text(), /The API is up/);
    }
    assert.is((await fetch(`${url}/assets/app.js`)).status, 404);
    assert.is((await fetch(`${url}/favicon.ico`)).status, 404);
  } finally {
    server.close();
  }
});

ui('a build is served: index for client routes, hashed assets cached a year, missing build files 404', async () => {
  const t = tempDir();
  const outside = tempDir();
  try {
    mkdirSync(join(t.dir, 'assets'));
    writeFileSync(join(t.dir, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(join(t.dir, 'assets/app-abc.js'), 'console.log(1)');
    writeFileSync(join(outside.dir, 'secret.txt'), 'secret');
    symlinkSync(join(outside.dir, 'secret.txt'), join(t.dir, 'leak.txt'));
    const { url, server } = await serve(t.dir, true);
    try {
      const index = await fetch(`${url}/sessions/x.y`);
      assert.is(index.status, 200);
      assert.is(await index.text(), '<!doctype html><title>ui</title>');
      assert.is(index.headers.get('cache-control'), 'no-cache');
      const asset = await fetch(`${url}/assets/app-abc.js`);
      assert.is(asset.headers.get('content-type'), 'text/javascript');
      assert.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.is((await fetch(`${url}/assets/missing.js`)).status, 404);
      assert.is((await fetch(`${url}/leak.txt`)).status, 404);
      const post = await fetch(`${url}/`, { method: 'POST' });
      assert.is(post.status, 405);
      assert.equal(await post.json(), { error: 'the UI is read with GET' });
    } finally {
      server.close();
    }
  } finally {
    t.cleanup();
    outside.cleanup();
  }
});

ui('what looks like a build file is decided by its place and extension', () => {
  assert.ok(looksLikeBuildFile('assets/x'));
  assert.ok(looksLikeBuildFile('robots.txt'));
  assert.ok(looksLikeBuildFile('Logo.PNG'));
  assert.not.ok(looksLikeBuildFile('sessions/abc.json'));
  assert.not.ok(looksLikeBuildFile('shop.promoted'));
});

ui.run();
