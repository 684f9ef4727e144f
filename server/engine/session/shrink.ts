// A long line's text with its long strings cut, made from the line's bytes without decoding them whole. A
// worker's heap is capped (workers/pool.ts), and a line's text and its parsed values both live on it: a
// tool that returns a 30 MB file writes a 30 MB line, whose text and value alone would fill that heap.
// Only a line longer than SESSION_LINE_FULL_BYTES is cut; each of its strings (keys too) longer than
// SESSION_VALUE_KEEP_BYTES keeps that many bytes and a mark that says how long it was. The raw download
// still serves the file as it is.
import {
  SESSION_LINE_FULL_BYTES,
  SESSION_LINE_REST_MAX_BYTES,
  SESSION_VALUE_KEEP_BYTES,
} from '../../../shared/limits.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** What a cut string ends with: its length in the log (as escaped there), in bytes. */
export function cutMark(bytes: number): string {
  return `… [cut for display: ${bytes} bytes in the log]`;
}

/** A line whose JSON is too big even after its long strings are cut (the bound is in the message). */
export class LineTooBig extends Error {}

const MIB = 1024 * 1024;
const mib = (n: number) => `${Math.round((n / MIB) * 10) / 10} MiB`;

/** Where the closing quote of the string whose content starts at `from` lies, or -1 when it is not closed. */
function closingQuote(b: Buffer, from: number): number {
  for (let q = b.indexOf(QUOTE, from); q !== -1; q = b.indexOf(QUOTE, q + 1)) {
    let slashes = 0;
    for (let k = q - 1; k >= from && b[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** The length of the UTF-8 sequence that `lead` starts (the line is known to be UTF-8). */
function seqLength(lead: number): number {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/**
 * Where to cut the string content starting at `from` so that at most `keep` bytes stay: never inside a
 * UTF-8 sequence or an escape, and never between the two escapes of a surrogate pair (a lone surrogate
 * escape makes the line unreadable).
 */
function cutPoint(b: Buffer, from: number, keep: number): number {
  const limit = from + keep;
  let p = from;
  let lastHigh = -1;
  while (p < limit) {
    const c = b[p] as number;
    let n: number;
    let high = false;
    if (c === BACKSLASH) {
      if (b[p + 1] === 0x75) {
        n = 6;
        const d = b[p + 2];
        const e = b[p + 3];
        // \uD800 to \uDBFF: the first half of a pair.
        high = (d === 0x44 || d === 0x64) && e !== undefined && (e === 0x38 || e === 0x39 || (e | 0x20) === 0x61 || (e | 0x20) === 0x62);
      } else n = 2;
    } else n = seqLength(c);
    if (p + n > limit) break;
    lastHigh = high ? p : -1;
    p += n;
  }
  return lastHigh === -1 ? p : lastHigh;
}

/**
 * The line as text, cut as described above when it is longer than SESSION_LINE_FULL_BYTES; `cut` counts
 * the strings cut. Throws LineTooBig when what is left is still more than SESSION_LINE_REST_MAX_BYTES.
 * `bytes` must be UTF-8 (the readers check that first).
 */
export function lineText(
  bytes: Buffer,
  full = SESSION_LINE_FULL_BYTES,
  keep = SESSION_VALUE_KEEP_BYTES,
  restMax = SESSION_LINE_REST_MAX_BYTES,
): { text: string; cut: number } {
  if (bytes.length <= full) return { text: bytes.toString('utf8'), cut: 0 };
  const pieces: Buffer[] = [];
  let size = 0;
  let cut = 0;
  let from = 0; // start of the bytes not yet taken
  const take = (piece: Buffer) => {
    pieces.push(piece);
    size += piece.length;
    if (size > restMax) {
      throw new LineTooBig(
        `the line is ${mib(bytes.length)} and more than ${mib(restMax)} of it is not in strings longer than ${keep / 1024} KiB (the most the console reads of a line besides such strings)`,
      );
    }
  };
  let i = 0;
  for (;;) {
    const open = bytes.indexOf(QUOTE, i);
    if (open === -1) break;
    const start = open + 1;
    const close = closingQuote(bytes, start);
    const end = close === -1 ? bytes.length : close;
    if (end - start > keep) {
      const at = cutPoint(bytes, start, keep);
      take(bytes.subarray(from, at));
      take(Buffer.from(cutMark(end - start), 'utf8'));
      cut++;
      from = end;
    }
    if (close === -1) break;
    i = close + 1;
  }
  take(bytes.subarray(from));
  return { text: Buffer.concat(pieces, size).toString('utf8'), cut };
}
