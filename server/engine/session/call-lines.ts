// The line (from 1) each call's request is on, for addresses of one call (`/sessions/<key>?line=<N>`): one
// pass over the log counting line breaks up to each request's byte offset, a chunk at a time.
import { closeSync, openSync, readSync } from 'node:fs';
import type { CallPlace } from '../sessions.ts';

const CHUNK = 1 << 20;

export function callLines(path: string, places: readonly CallPlace[]): (number | null)[] {
  const out: (number | null)[] = places.map(() => null);
  const wanted = places
    .map((p, n) => ({ n, offset: p.request?.offset ?? -1 }))
    .filter((w) => w.offset >= 0)
    .sort((a, b) => a.offset - b.offset);
  if (wanted.length === 0) return out;
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let line = 1;
    let pos = 0;
    let next = 0;
    while (next < wanted.length) {
      const got = readSync(fd, chunk, 0, CHUNK, pos);
      if (got === 0) break;
      for (let at = chunk.indexOf(0x0a); ; at = chunk.indexOf(0x0a, at + 1)) {
        // A request on the line that ends at this break (or, past the last break, anywhere in the chunk).
        const end = at !== -1 && at < got ? pos + at : pos + got - 1;
        while (next < wanted.length && wanted[next]!.offset <= end) out[wanted[next++]!.n] = line;
        if (at === -1 || at >= got) break;
        line++;
      }
      pos += got;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
