// A session's trigram filter: a few hundred bits set by the case-folded trigrams of the string values of its
// log and companions, so a search skips a session whose filter lacks a trigram of the phrase without opening
// its files. It never rules out a match: the bytes are decoded as the search decodes them (`\u` escapes of
// ASCII, KELVIN SIGN and LONG S as the ASCII letters they fold to), and only characters a phrase's trigram can
// hold are kept (phrase.ts: `plain`); keys and the engine's own fields are kept too, so it errs on "may hold".
import { FILTER_BYTES } from '../store/search-filters.ts';
import { plain } from './phrase.ts';

const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c | 0x20 : c);

const FILTER_BITS = FILTER_BYTES * 8;
const SHIFT = 32 - Math.log2(FILTER_BITS);
/** A filter with more bits set than this rules out almost nothing: the session is searched in full instead. */
const FULL_SHARE = 0.75;

/** A byte's class: the lowercased character for a plain one, else one of these. */
const OTHER = -1;
const QUOTE = -2;
const BACKSLASH = -3;
const NEWLINE = -4;
const KELVIN_LEAD = -5;
const LONG_S_LEAD = -6;
const CLASS = Int8Array.from({ length: 256 }, (_, b) =>
  b === 0x22 ? QUOTE : b === 0x5c ? BACKSLASH : b === 0x0a ? NEWLINE : b === 0xe2 ? KELVIN_LEAD : b === 0xc5 ? LONG_S_LEAD : plain(b) ? lower(b) : OTHER,
);

/** The bit of a trigram of lowercased ASCII (each 7 bits). */
const bitOf = (a: number, b: number, c: number): number => Math.imul((a << 14) | (b << 7) | c, 0x9e3779b1) >>> SHIFT;

const hexAt = (bytes: Uint8Array, at: number): number => {
  let n = 0;
  for (let i = at; i < at + 4; i++) {
    const c = bytes[i]!;
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (d < 0) return -1;
    n = (n << 4) | d;
  }
  return n;
};

/** What an escape's code point counts as: the ASCII letter a folding sign stands for, itself if plain, else a break. */
const escaped = (code: number): number => (code === 0x212a ? 0x6b : code === 0x017f ? 0x73 : code < 0x80 && plain(code) ? lower(code) : OTHER);

/** A filter being made from the bytes of a session's files, one file (or whole-line chunk) at a time. */
export class FilterBuilder {
  readonly bits = new Uint8Array(FILTER_BYTES);

  /** Adds the trigrams of the string values in `bytes[0, length)` (whole lines; a line's state ends at its `\n`). */
  add(bytes: Uint8Array, length: number): void {
    for (let i = 0; i < length; i++) if (bytes[i] === 0x22) i = this.string(bytes, i + 1, length);
  }

  /** Adds the trigrams of the string starting at `from`; answers where it ends (its closing quote or line break). */
  private string(bytes: Uint8Array, from: number, length: number): number {
    const { bits } = this;
    // The last three characters, 7 bits each, and how many came since the last break.
    let tri = 0;
    let run = 0;
    for (let i = from; i < length; i++) {
      let c = CLASS[bytes[i]!]!;
      if (c < 0) {
        // A raw line break ends a cut line's string: JSON writes none inside one.
        if (c === QUOTE || c === NEWLINE) return i;
        if (c === BACKSLASH) {
          const code = bytes[i + 1] === 0x75 && i + 5 < length ? hexAt(bytes, i + 2) : -1;
          c = code < 0 ? OTHER : escaped(code);
          i += code < 0 ? 1 : 5;
        } else if (c === KELVIN_LEAD && i + 2 < length && bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa) {
          c = 0x6b;
          i += 2;
        } else if (c === LONG_S_LEAD && i + 1 < length && bytes[i + 1] === 0xbf) {
          c = 0x73;
          i += 1;
        } else c = OTHER;
        if (c < 0) {
          run = 0;
          continue;
        }
      }
      tri = ((tri << 7) | c) & 0x1fffff;
      if (++run >= 3) {
        const bit = Math.imul(tri, 0x9e3779b1) >>> SHIFT;
        bits[bit >>> 3]! |= 1 << (bit & 7);
      }
    }
    return length;
  }

  /** The filter, or null when it is too full to rule anything out. */
  finish(): Uint8Array | null {
    let set = 0;
    for (const b of this.bits) set += POPCOUNT[b]!;
    return set > FILTER_BITS * FULL_SHARE ? null : this.bits;
  }
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let x = b; x; x >>= 1) n += x & 1;
  return n;
});

/**
 * The bits a session's filter must have for it to hold the phrase: those of every trigram of the phrase's
 * runs of plain characters, lowercased. Null when it has none (a phrase under 3 such characters): every
 * session may hold it.
 */
export function phraseBits(text: string): Uint32Array | null {
  const out = new Set<number>();
  for (let i = 0; i + 2 < text.length; i++) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    if (plain(a) && plain(b) && plain(c)) out.add(bitOf(lower(a), lower(b), lower(c)));
  }
  return out.size === 0 ? null : Uint32Array.from(out);
}

/** Whether the filter at `at` in `arena` has every bit of the phrase. */
export function filterMayHold(arena: Uint8Array, at: number, bits: Uint32Array): boolean {
  for (const bit of bits) if ((arena[at + (bit >>> 3)]! & (1 << (bit & 7))) === 0) return false;
  return true;
}
