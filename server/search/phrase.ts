// A phrase compiled for searching bytes: the matcher on decoded text (Unicode simple case folding, which a
// RegExp with the `iu` flags applies) and a prefilter on raw bytes, so a log is decoded only where it may
// hold the phrase. The prefilter is the longest run of printable ASCII that JSON never has to escape, found
// case-insensitively in the bytes as Latin-1; a line can hide that run only behind a `\u` escape of an
// ASCII character, or behind the two non-ASCII letters that fold to ASCII (KELVIN SIGN, LONG S).

/** The shortest run worth filtering on; a shorter one makes every line a candidate. */
const ANCHOR_MIN = 3;
/** A longer run filters no better and costs the RegExp more. */
const ANCHOR_MAX = 32;

export interface Phrase {
  readonly text: string;
  /** A fresh global matcher on decoded strings (reset lastIndex before each string). */
  readonly matcher: RegExp;
  /** Case-insensitive, over a log read as Latin-1; null when every line is a candidate. */
  readonly anchor: RegExp | null;
  /** The anchor's longest run without letters (3 bytes or more), found in raw bytes before the anchor is tried. */
  readonly caseless: Buffer | null;
  /** Whether a KELVIN SIGN or LONG S in the log may stand for a letter of the anchor. */
  readonly foldsFromNonAscii: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** A character JSON writes as itself: printable ASCII but the quote, the backslash and the slash. */
export const plain = (c: number) => c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c && c !== 0x2f;

function longestPlainRun(text: string): string {
  let best = '';
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && plain(text.charCodeAt(i))) continue;
    if (i - start > best.length) best = text.slice(start, i);
    start = i + 1;
  }
  return best.length > ANCHOR_MAX ? best.slice(0, ANCHOR_MAX) : best;
}

/** The longest run of `run` with no letter: it has one spelling, so a plain byte search finds it. */
function longestCaselessRun(run: string): Buffer | null {
  const best = run.split(/[A-Za-z]+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= ANCHOR_MIN ? Buffer.from(best, 'latin1') : null;
}

export function compilePhrase(text: string): Phrase {
  const run = longestPlainRun(text);
  const anchor = run.length >= ANCHOR_MIN ? new RegExp(escapeRegExp(run), 'gi') : null;
  return {
    text,
    matcher: new RegExp(escapeRegExp(text), 'giu'),
    anchor,
    caseless: anchor === null ? null : longestCaselessRun(run),
    foldsFromNonAscii: anchor !== null && /[ks]/i.test(run),
  };
}

/** Latin-1 spellings (one char a byte) of what can hide an anchor's character from the byte filter. */
export const HIDING_ESCAPE = /\\u(?:00[2-7][0-9a-f]|212a|017f)/gi;
export const KELVIN_UTF8 = Buffer.from('\u212a');
export const LONG_S_UTF8 = Buffer.from('\u017f');
