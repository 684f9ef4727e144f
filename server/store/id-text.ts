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
/**
 * Rows per chunk of text: a full chunk is never copied or freed, so growing never copies the whole text nor
 * leaves its old copies for the allocator to hold on to.
 */
const CHUNK_BITS = 16;
const CHUNK_ROWS = 1 << CHUNK_BITS;

/** Whether a lowercased text could be in a slot: ASCII, no newline, shorter than a slot. */
function fitsSlot(lower: string): boolean {
  if (lower.length >= SLOT) return false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c === PAD || c >= 0x80) return false;
  }
  return true;
}

export class IdText {
  /** Chunks of CHUNK_ROWS slots; the last may hold fewer (it doubles until full). */
  private readonly chunks: Buffer[] = [];
  /** Lowercased ids that do not fit a slot, by row (their slots hold padding only). */
  private readonly aside = new Map<number, string>();

  constructor(rows: number) {
    this.grow(rows);
  }

  /** Room for `rows` rows (new slots empty). */
  grow(rows: number): void {
    for (;;) {
      const last = this.chunks.length - 1;
      const full = last < 0 || this.chunks[last]!.length === CHUNK_ROWS * SLOT;
      const first = (full ? last + 1 : last) * CHUNK_ROWS;
      const held = full ? 0 : this.chunks[last]!.length / SLOT;
      if (first + held >= rows) return;
      const chunk = Buffer.alloc(Math.min(CHUNK_ROWS, Math.max(rows - first, held * 2)) * SLOT, PAD);
      if (full) this.chunks.push(chunk);
      else {
        this.chunks[last]!.copy(chunk);
        this.chunks[last] = chunk;
      }
    }
  }

  /** The row's session id (as the summary has it; kept lowercased). */
  set(row: number, id: string): void {
    const text = this.chunks[row >>> CHUNK_BITS]!;
    const at = (row & (CHUNK_ROWS - 1)) * SLOT;
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
    const at = (row & (CHUNK_ROWS - 1)) * SLOT;
    this.chunks[row >>> CHUNK_BITS]!.fill(PAD, at, at + SLOT);
  }

  /** Mark (1) in `hits`, by row, every row whose lowercased id contains `needle` (lowercase, not empty). */
  mark(needle: string, hits: Uint8Array): void {
    // A slot never holds a newline, a byte past ASCII, or an id as long as itself: such a needle is only aside.
    if (fitsSlot(needle)) {
      const bytes = Buffer.from(needle, 'latin1');
      this.chunks.forEach((text, k) => {
        for (let at = text.indexOf(bytes); at >= 0; at = text.indexOf(bytes, at)) {
          const slot = (at / SLOT) | 0;
          hits[(k << CHUNK_BITS) + slot] = 1;
          at = (slot + 1) * SLOT;
        }
      });
    }
    for (const [row, lower] of this.aside) if (lower.includes(needle)) hits[row] = 1;
  }
}
