// A file sent from an open descriptor through two buffers used in turn, rather than as a stream of fresh
// buffers: a session's detail is tens of MB, and that many bytes of new buffers in a second make V8 collect
// its whole heap (the index of every session) while the file goes out, a pause every other request waits
// behind. A buffer is read into again only once the socket has taken what was written from it.
import { close, read } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';

const CHUNK = 1024 * 1024;

/** Answer with `bytes` bytes of the file open at `fd`, which this closes; `type` is the whole Content-Type (content-type.ts). */
export function sendFile(ctx: Context, fd: number, bytes: number, type: string): void {
  ctx.set('Content-Type', type);
  ctx.length = bytes;
  ctx.status = 200;
  // Koa writes nothing more: the headers set so far go out with the first write.
  ctx.respond = false;
  const res = ctx.res;
  if (ctx.method === 'HEAD') {
    close(fd, () => {});
    res.end();
    return;
  }
  void pump(fd, bytes, res);
}

const readAt = (fd: number, buf: Buffer, length: number, position: number) =>
  new Promise<number>((resolve, reject) => read(fd, buf, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))));

async function pump(fd: number, bytes: number, res: ServerResponse): Promise<void> {
  const buffers = [Buffer.allocUnsafeSlow(Math.min(CHUNK, bytes)), Buffer.allocUnsafeSlow(Math.min(CHUNK, bytes))];
  const taken: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  // A response closed early (the client went away) fails its pending writes' callbacks, or never calls them.
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  try {
    for (let at = 0, k = 0; at < bytes; k ^= 1) {
      await Promise.race([taken[k], closed]);
      if (res.destroyed) return;
      const buf = buffers[k]!;
      const n = await readAt(fd, buf, Math.min(CHUNK, bytes - at), at);
      if (n === 0) throw new Error('the file ended before its length');
      at += n;
      taken[k] = new Promise<void>((resolve) => res.write(buf.subarray(0, n), () => resolve()));
    }
    res.end();
  } catch {
    // The length is promised in the headers: a short answer must not look whole.
    res.destroy();
  } finally {
    close(fd, () => {});
  }
}
