// The outline's shortcut for the lines that make a big log big: a plain successful tools/call answer as the
// proxy writes it, one text item and `"isError":false`. Such a line's answer is known without parsing it:
// its text's head (for the short forms) and the UTF-8 size of the whole text, counted from the escapes of
// the JSON string. Any other shape answers null, and the caller parses the line.

/** What follows `"result":` in the two shapes taken, and how each line then ends. */
const SHAPES: [start: string, end: string][] = [
  ['{"content":[{"text":"', '","type":"text"}],"isError":false}}}'],
  ['{"content":[{"type":"text","text":"', '"}],"isError":false}}}'],
];

/** How many code units of the literal are decoded for the head: several times what any short form shows. */
const HEAD_UNITS = 2400;

export interface PlainAnswer {
  /** The text's first HEAD_UNITS code units or so, decoded (the whole text when shorter). */
  head: string;
  /** UTF-8 size of the whole decoded text. */
  bytes: number;
}

function hex4(line: string, at: number): number {
  const h = line.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(h) ? parseInt(h, 16) : -1;
}

/**
 * A `\\uXXXX` escape at `slash`: how many bytes it saves against the UTF-8 it stands for, and where the walk
 * goes on (a surrogate pair is one character of four bytes); null when malformed. The text and the byte
 * walks below read their input through `hexAt` and `escapeUAt`.
 */
function unicodeEscape(slash: number, hexAt: (at: number) => number, escapeUAt: (at: number) => boolean): { saved: number; pos: number } | null {
  const u = hexAt(slash + 2);
  if (u === -1) return null;
  if (u >= 0xd800 && u <= 0xdbff && escapeUAt(slash + 6)) {
    const low = hexAt(slash + 8);
    if (low >= 0xdc00 && low <= 0xdfff) return { saved: 12 - 4, pos: slash + 12 };
  }
  return { saved: 6 - (u < 0x80 ? 1 : u < 0x800 ? 2 : 3), pos: slash + 6 };
}

/** The answer of `line`, whose `"result":` ends at `from`; null when the line is not of a plain shape. */
export function plainAnswer(line: string, from: number): PlainAnswer | null {
  for (const [start, end] of SHAPES) {
    if (!line.startsWith(start, from) || !line.endsWith(end)) continue;
    const s = from + start.length;
    const e = line.length - end.length;
    if (e < s) return null;
    // Walk the escapes; the string must close exactly at `e` (an unescaped quote before it means another shape).
    let saved = 0;
    let pos = s;
    let quote = line.indexOf('"', s);
    for (;;) {
      const slash = line.indexOf('\\', pos);
      if (quote < pos) quote = line.indexOf('"', pos);
      if (slash === -1 || slash >= e) {
        if (quote !== e) return null;
        break;
      }
      if (quote !== -1 && quote < slash) return null;
      const c = line.charCodeAt(slash + 1);
      if (c === 0x75 /* u */) {
        const step = unicodeEscape(slash, (at) => hex4(line, at), (at) => line.startsWith('\\u', at));
        if (step === null) return null;
        saved += step.saved;
        pos = step.pos;
      } else if ('"\\/bfnrt'.includes(line[slash + 1] ?? '')) {
        saved += 1;
        pos = slash + 2;
      } else return null;
    }
    const bytes = Buffer.byteLength(line.slice(s, e), 'utf8') - saved;
    let head: string | null = null;
    // Cut the literal short of its end, backing off until no escape is split.
    for (let cut = Math.min(e, s + HEAD_UNITS), tries = 0; tries < 12 && head === null; cut--, tries++) {
      try {
        head = JSON.parse(`"${line.slice(s, cut)}"`) as string;
      } catch {
        head = null;
      }
    }
    return head === null ? null : { head, bytes };
  }
  return null;
}

const SHAPE_BYTES: [start: Buffer, end: Buffer][] = SHAPES.map(([a, b]) => [Buffer.from(a), Buffer.from(b)]);

/**
 * plainAnswer's walk over a line's bytes: where the text's literal lies (`s` to `e`) and how many bytes its
 * escapes save, or null for any other shape. `from` is the byte offset just past `"result":`. Quotes and
 * backslashes are ASCII, never part of a longer UTF-8 sequence, so the walk meets them in the order and at
 * the places (in bytes) where the text's walk meets them (in code units).
 */
function literalOf(bytes: Buffer, from: number): { s: number; e: number; saved: number } | null {
  for (const [start, end] of SHAPE_BYTES) {
    if (bytes.length < from + start.length + end.length) continue;
    if (!bytes.subarray(from, from + start.length).equals(start) || !bytes.subarray(bytes.length - end.length).equals(end)) continue;
    const s = from + start.length;
    const e = bytes.length - end.length;
    let saved = 0;
    let pos = s;
    let quote = bytes.indexOf(0x22, s);
    for (;;) {
      const slash = bytes.indexOf(0x5c, pos);
      if (quote !== -1 && quote < pos) quote = bytes.indexOf(0x22, pos);
      if (slash === -1 || slash >= e) {
        if (quote !== e) return null;
        break;
      }
      if (quote !== -1 && quote < slash) return null;
      const c = bytes[slash + 1];
      if (c === 0x75 /* u */) {
        const step = unicodeEscape(slash, (at) => hex4(bytes.toString('latin1', at, at + 4), 0), (at) => bytes[at] === 0x5c && bytes[at + 1] === 0x75);
        if (step === null) return null;
        saved += step.saved;
        pos = step.pos;
      } else if (c !== undefined && '"\\/bfnrt'.includes(String.fromCharCode(c))) {
        saved += 1;
        pos = slash + 2;
      } else return null;
    }
    return { s, e, saved };
  }
  return null;
}

/**
 * The same over a line's bytes, for a line too long to be read whole (its text comes with long strings cut
 * for display: shrink.ts): `from` is the byte offset just past `"result":`. The text's head is decoded
 * from its first bytes only, so the long string is never made into a JS string.
 */
export function plainAnswerBytes(bytes: Buffer, from: number): PlainAnswer | null {
  const literal = literalOf(bytes, from);
  if (literal === null) return null;
  const { s, e, saved } = literal;
  let head: string | null = null;
  let cut = Math.min(e, s + HEAD_UNITS * 2);
  for (let tries = 0; tries < 16 && head === null; cut--, tries++) {
    // A cut inside a character or an escape does not parse: back off a byte at a time.
    if (cut < e && ((bytes[cut] ?? 0) & 0xc0) === 0x80) continue;
    try {
      head = JSON.parse(`"${bytes.toString('utf8', s, cut)}"`) as string;
    } catch {
      head = null;
    }
  }
  return head === null ? null : { head, bytes: e - s - saved };
}

/** Bytes that hold at least HEAD_UNITS code units of UTF-8 text (at most three bytes a unit), and a character more. */
const HEAD_SPAN_BYTES = HEAD_UNITS * 3 + 4;

/**
 * Exactly what plainAnswer answers for the line these bytes decode to, without decoding the line: only the
 * literal's first HEAD_SPAN_BYTES are (the outline of a big log reads its long answers this way).
 */
export function plainAnswerOfLine(bytes: Buffer, from: number): PlainAnswer | null {
  const literal = literalOf(bytes, from);
  if (literal === null) return null;
  const { s, e, saved } = literal;
  const whole = e - s <= HEAD_SPAN_BYTES;
  const start = bytes.toString('utf8', s, whole ? e : s + HEAD_SPAN_BYTES);
  let head: string | null = null;
  // plainAnswer's cut, in code units of the literal (past HEAD_SPAN_BYTES there are more than HEAD_UNITS).
  for (let cut = whole ? Math.min(start.length, HEAD_UNITS) : HEAD_UNITS, tries = 0; tries < 12 && head === null; cut--, tries++) {
    try {
      head = JSON.parse(`"${start.slice(0, cut)}"`) as string;
    } catch {
      head = null;
    }
  }
  return head === null ? null : { head, bytes: e - s - saved };
}
