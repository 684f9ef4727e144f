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
        const u = hex4(line, slash + 2);
        if (u === -1) return null;
        if (u >= 0xd800 && u <= 0xdbff && line.startsWith('\\u', slash + 6)) {
          const low = hex4(line, slash + 8);
          if (low >= 0xdc00 && low <= 0xdfff) {
            saved += 12 - 4;
            pos = slash + 12;
            continue;
          }
        }
        saved += 6 - (u < 0x80 ? 1 : u < 0x800 ? 2 : 3);
        pos = slash + 6;
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
