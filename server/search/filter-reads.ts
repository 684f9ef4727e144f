// The search filters of a batch's sessions, read in the search worker from the console's filter file
// (store/filter-file.ts) by positioned reads, slots close together in one read: which sessions' filters rule
// the phrase out. What cannot be read (the file gone with a stopped console, a slot past its end) rules
// nothing out: the session is searched in full.
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { FILTER_BYTES } from '../store/search-filters.ts';
import { filterMayHold } from './trigram-filter.ts';

/** The most one read takes: slots further apart are read apart. */
const SPAN_BYTES = 64 * 1024;
const span = Buffer.allocUnsafe(SPAN_BYTES);

/** Where the filters of a batch's sessions are: the file, each session's offset in it (-1: none), the phrase's bits. */
export interface BatchFilters {
  file: string;
  at: Int32Array;
  bits: Uint32Array;
}

/** Per session of the batch, 1 where its filter rules the phrase out. */
export function ruledOutByFile({ file, at, bits }: BatchFilters): Uint8Array {
  const out = new Uint8Array(at.length);
  const order = [...at.keys()].filter((i) => at[i]! >= 0).sort((a, b) => at[a]! - at[b]!);
  if (order.length === 0) return out;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return out;
  }
  try {
    for (let first = 0; first < order.length; ) {
      const from = at[order[first]!]!;
      let end = first + 1;
      while (end < order.length && at[order[end]!]! + FILTER_BYTES - from <= SPAN_BYTES) end++;
      const read = readSpan(fd, from, at[order[end - 1]!]! + FILTER_BYTES - from);
      for (let k = first; k < end; k++) {
        const i = order[k]!;
        const within = at[i]! - from;
        if (within + FILTER_BYTES <= read && !filterMayHold(span, within, bits)) out[i] = 1;
      }
      first = end;
    }
  } catch {
    // A read that fails rules out what was read before it, no more.
  } finally {
    closeSync(fd);
  }
  return out;
}

/** Reads `length` bytes from `position` into `span`; answers how many were there. */
function readSpan(fd: number, position: number, length: number): number {
  let done = 0;
  for (let n = -1; n !== 0 && done < length; done += n) n = readSync(fd, span, done, length - done, position + done);
  return done;
}
