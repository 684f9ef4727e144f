// Writing many byte parts to an open file with as few system calls as it takes, and no concatenated copy.
import { writeSync, writevSync } from 'node:fs';

/** writev takes at most IOV_MAX (1024) buffers at a time. */
const PARTS_PER_CALL = 512;

/** Writes every part, in order, at the file's current position; returns the bytes written. */
export function writeParts(fd: number, parts: readonly Uint8Array[]): number {
  let bytes = 0;
  for (let i = 0; i < parts.length; i += PARTS_PER_CALL) {
    const group = parts.slice(i, i + PARTS_PER_CALL);
    const want = group.reduce((n, c) => n + c.byteLength, 0);
    let wrote = writevSync(fd, group);
    // A short write (a signal can cut one short; a full disk throws): finish it.
    if (wrote < want) {
      const rest = Buffer.concat(group).subarray(wrote);
      for (let at = 0; at < rest.length; ) at += writeSync(fd, rest, at);
      wrote = want;
    }
    bytes += wrote;
  }
  return bytes;
}
