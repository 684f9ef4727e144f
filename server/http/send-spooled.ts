// An answer made of spool files sent one after another as they are made (a long export's batches), through
// two reused buffers like send-file.ts: the bytes go from disk to the socket without new buffers, copies or
// decoding on the event loop. Its length is not known up front, so it goes chunked, and what the parts left
// out is told in a trailer once they are all sent.
import { close, open, read } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { SpooledFile } from '../store/spool.ts';

const CHUNK = 1024 * 1024;

/** The trailer that says how many sessions an export left out (their paths and why are on stderr). */
export const SKIPPED_TRAILER = 'X-Engine-Skipped';

/** A trailer's name, and its value once every part is sent. */
export interface Trailer {
  name: string;
  value: () => string;
}

/**
 * Answers 200 with the parts' bytes in order, then the trailer. The parts' source
 * removes each file once the next is asked for; a part that cannot be read cuts the answer short (destroyed,
 * so it cannot look whole).
 */
export function sendSpooled(ctx: Context, parts: AsyncGenerator<SpooledFile>, type: string, trailer: Trailer): void {
  ctx.set('Content-Type', type);
  ctx.set('Trailer', trailer.name);
  ctx.status = 200;
  // Koa writes nothing more: the headers set so far go out with the first write.
  ctx.respond = false;
  if (ctx.method === 'HEAD') {
    void parts.return(undefined);
    ctx.res.end();
    return;
  }
  void pump(parts, ctx.res, trailer);
}

const openRead = (file: string) => new Promise<number>((resolve, reject) => open(file, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));
const readAt = (fd: number, buf: Buffer, length: number, position: number) =>
  new Promise<number>((resolve, reject) => read(fd, buf, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))));

async function pump(parts: AsyncGenerator<SpooledFile>, res: ServerResponse, trailer: Trailer): Promise<void> {
  const buffers = [Buffer.allocUnsafeSlow(CHUNK), Buffer.allocUnsafeSlow(CHUNK)];
  const taken: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  // A response closed early (the client went away) fails its pending writes' callbacks, or never calls them.
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  let k = 0;
  try {
    for await (const part of parts) {
      const fd = await openRead(part.file);
      try {
        for (let at = 0; at < part.bytes; k ^= 1) {
          await Promise.race([taken[k], closed]);
          if (res.destroyed) return;
          const buf = buffers[k]!;
          const n = await readAt(fd, buf, Math.min(CHUNK, part.bytes - at), at);
          if (n === 0) throw new Error('a spooled part ended before its length');
          at += n;
          taken[k] = new Promise<void>((resolve) => res.write(buf.subarray(0, n), () => resolve()));
        }
      } finally {
        close(fd, () => {});
      }
    }
    res.addTrailers({ [trailer.name]: trailer.value() });
    res.end();
  } catch {
    // Headers are out: a failed export must not look whole.
    res.destroy();
  }
}
