// The rows' session ids, lowercased, in one byte text of fixed slots, so `q` finds the ids that contain it
// with a native search of that text: testing a string per row reaches a million strings scattered over the
// heap, and lowercasing each makes a million more.
//
// A slot holds an ASCII id shorter than the slot, padded with newlines (no such id has one, so no match
// crosses slots); any other id is kept aside as a string and tested on its own. A slot is a row's (the
// columns' row numbers), so where a match is says whose id it is.

/** Bytes per row: the engine's ids (`YYYYMMDDTHHMMSS.mmmZ-pid`) fit with room to spare. */
const SLOT = 32;
const PAD = 0x0a;

/** Whether a lowercased id goes in a slot: ASCII, no newline, shorter than a slot. */
function fitsSlot(lower: string): boolean {
  if (lower.length >= SLOT) return false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c === PAD || c >= 0x80) return false;
  }
  return true;
}

export class IdText {
  private text: Buffer;
  /** Lowercased ids that do not fit a slot, by row (their slots hold padding only). */
  private readonly aside = new Map<number, string>();

  constructor(rows: number) {
    this.text = Buffer.alloc(rows * SLOT, PAD);
  }

  /** Room for `rows` rows (new slots empty). */
  grow(rows: number): void {
    const text = Buffer.alloc(rows * SLOT, PAD);
    this.text.copy(text);
    this.text = text;
  }

  /** The row's session id (as the summary has it; kept lowercased). */
  set(row: number, id: string): void {
    const text = this.text;
    const at = row * SLOT;
    // An ASCII id lowercased byte by byte, in place: no string made for it.
    let i = 0;
    for (; i < id.length && i < SLOT - 1; i++) {
      const c = id.charCodeAt(i);
      if (c === PAD || c >= 0x80) break;
      text[at + i] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
    }
    if (i === id.length) this.aside.delete(row);
    else {
      i = 0;
      this.aside.set(row, id.toLowerCase());
    }
    for (; i < SLOT; i++) text[at + i] = PAD;
  }

  /** The row has no id (unreadable, or free). */
  clear(row: number): void {
    this.aside.delete(row);
    this.text.fill(PAD, row * SLOT, row * SLOT + SLOT);
  }

  /** Mark (1) in `hits`, by row, every row whose lowercased id contains `needle` (lowercase, not empty). */
  mark(needle: string, hits: Uint8Array): void {
    // A slot never holds a newline, a byte past ASCII, or an id as long as itself: such a needle is only aside.
    if (fitsSlot(needle)) {
      const text = this.text;
      const bytes = Buffer.from(needle, 'latin1');
      for (let at = text.indexOf(bytes); at >= 0; at = text.indexOf(bytes, at)) {
        const row = (at / SLOT) | 0;
        hits[row] = 1;
        at = (row + 1) * SLOT;
      }
    }
    for (const [row, lower] of this.aside) if (lower.includes(needle)) hits[row] = 1;
  }
}
