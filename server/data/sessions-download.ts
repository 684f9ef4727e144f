// Several sessions as one download: each log with its flow and confirmation logs, in a tar archive streamed
// from the files (a file's size is taken as it starts, so a log still being written is cut there).
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tarEnd, tarHeader, tarPadding } from '../engine/tar.ts';
import type { DataContext } from './data-context.ts';
import type { SessionFile } from './catalog.ts';

export class NoSuchSessions extends Error {}

/** The sessions of `keys`, in that order; throws NoSuchSessions naming those that are not there. */
export async function sessionsToDownload(state: DataContext, keys: readonly string[]): Promise<SessionFile[]> {
  const catalog = await state.catalog();
  const files = keys.map((k) => catalog.session(k));
  const missing = keys.filter((_k, i) => !files[i]);
  if (missing.length > 0) throw new NoSuchSessions(`no session ${missing.map((k) => JSON.stringify(k)).join(', ')}`);
  return files.filter((f) => f !== undefined);
}

async function* archive(files: readonly SessionFile[]): AsyncGenerator<Buffer> {
  for (const f of files) {
    const parts = [f.path, f.flowLog, f.confirmLog].filter((p): p is string => typeof p === 'string');
    for (const path of parts) {
      let size: number;
      let mtimeMs: number;
      try {
        ({ size, mtimeMs } = statSync(path));
      } catch {
        // A companion deleted since the catalogue saw it: left out.
        continue;
      }
      const name = `${f.key}/${path.split('/').pop() ?? path}`;
      yield tarHeader(name, size, mtimeMs);
      let sent = 0;
      if (size > 0) {
        for await (const chunk of createReadStream(path, { start: 0, end: size - 1 })) {
          const b = chunk as Buffer;
          sent += b.length;
          yield b;
        }
      }
      // A file cut shorter while it was read still fills the size its header gave.
      if (sent < size) yield Buffer.alloc(size - sent);
      yield tarPadding(size);
    }
  }
  yield tarEnd();
}

export function sessionsArchive(files: readonly SessionFile[]): Readable {
  return Readable.from(archive(files));
}
