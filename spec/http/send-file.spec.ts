// http/send-file.ts: a file sent from its descriptor through two reused buffers, whole, with its length,
// and the descriptor closed whether the answer ends or the client goes away.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { fstatSync, openSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Koa from 'koa';
import { sendFile } from '../../server/http/send-file.ts';
import { CONTENT_TYPES } from '../../server/http/content-type.ts';
import { tempDir } from '../support/fixtures.ts';

const test = suite('http: send a file from its descriptor');

const dir = tempDir();
const bytes = randomBytes(3 * 1024 * 1024 + 12_345);
const file = join(dir.dir, 'detail.json');
writeFileSync(file, bytes);
let lastFd = -1;
let server: Server;
let port = 0;

test.before(async () => {
  const app = new Koa();
  // A client that goes away is reported by Koa's default handler; the console's own (http/errors.ts) is silent.
  app.silent = true;
  app.use((ctx) => {
    lastFd = openSync(file, 'r');
    ctx.set('X-Kept', 'yes');
    sendFile(ctx, lastFd, bytes.length, CONTENT_TYPES.json);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
test.after(() => {
  server.close();
  dir.cleanup();
});

const closed = async (fd: number) => {
  for (let i = 0; i < 100; i++) {
    try {
      fstatSync(fd);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
};

test('GET: the whole file, its length and the headers set before, then the descriptor is closed', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-length'), String(bytes.length));
  assert.is(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.is(res.headers.get('x-kept'), 'yes');
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes));
  assert.ok(await closed(lastFd));
});

test('HEAD: the length and no body', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-length'), String(bytes.length));
  assert.is((await res.arrayBuffer()).byteLength, 0);
  assert.ok(await closed(lastFd));
});

test('a client that goes away mid-answer: the descriptor is closed all the same', async () => {
  await new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => {});
    req.once('error', reject);
    req.end();
  });
  assert.ok(await closed(lastFd));
});

test.run();
