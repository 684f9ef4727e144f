// A session's search filter made from its files by the index task, right after its summary: the log and its
// flow log through the descriptors the summary read (their pages are in the cache), the confirmation log by
// its path. Read after the stamp was taken, so a log growing meanwhile gives a filter of more, never less.
import { closeSync, constants, openSync, readSync } from 'node:fs';
import type { OpenedFile } from '../engine/session/opened.ts';
import { FilterBuilder } from './trigram-filter.ts';

/** A session whose files hold more than this gets no filter: their trigrams would set most of its bits. */
export const FILTER_READ_MAX = 1 << 20;

let buf = Buffer.allocUnsafe(64 * 1024);

/** Reads a whole file from its start into `buf`; its length, or -1 when it holds more than `max` bytes. */
function readWhole(fd: number, max: number): number {
  let filled = 0;
  for (;;) {
    if (filled === buf.length) {
      if (buf.length > max) return -1;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, max + 1));
      buf.copy(bigger);
      buf = bigger;
    }
    const n = readSync(fd, buf, filled, buf.length - filled, filled);
    if (n === 0) return filled > max ? -1 : filled;
    filled += n;
  }
}

function readFile(path: string, opened: OpenedFile | undefined, max: number): number {
  if (opened) return readWhole(opened.fd, max);
  let fd: number;
  try {
    // Non-blocking: a companion swapped for a FIFO since it was listed must not hold the worker.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    // A companion that is gone holds nothing (its stamp says so); any other failure makes no filter.
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return 0;
    throw err;
  }
  try {
    return readWhole(fd, max);
  } finally {
    closeSync(fd);
  }
}

/** The filter of a session's files, or null (the search then reads them): too big, too full, or unreadable. */
export function sessionFilter(files: { path: string; flowLog: string | null; confirmLog: string | null }, opened: { log?: OpenedFile; flow?: OpenedFile } = {}): Uint8Array | null {
  const builder = new FilterBuilder();
  let total = 0;
  const each: [string | null, OpenedFile | undefined][] = [
    [files.path, opened.log],
    [files.flowLog, opened.flow],
    [files.confirmLog, undefined],
  ];
  try {
    for (const [path, file] of each) {
      if (path === null) continue;
      const n = readFile(path, file, FILTER_READ_MAX - total);
      if (n < 0) return null;
      total += n;
      builder.add(buf, n);
    }
  } catch {
    return null;
  }
  return builder.finish();
}
