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
 * leaves its old copies for the allocator to hold on to. A chunk is made when a row of its range is first set,
 * and doubles until full: room reserved for a million rows at once filled 32 MB in one turn of the event loop.
 */
const CHUNK_BITS = 16;
const CHUNK_ROWS = 1 << CHUNK_BITS;
const FIRST_CHUNK_ROWS = 1_024;

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
  /** Chunks of up to CHUNK_ROWS slots, by the rows' high bits; none until a row of its range is set. */
  private readonly chunks: (Buffer | undefined)[] = [];
  /** Lowercased ids that do not fit a slot, by row (their slots hold padding only). */
  private readonly aside = new Map<number, string>();

  /** The chunk that holds `row`'s slot, made or grown (padded) to hold it. */
  private chunkFor(row: number): Buffer {
    const k = row >>> CHUNK_BITS;
    const slot = row & (CHUNK_ROWS - 1);
    const held = this.chunks[k];
    if (held !== undefined && held.length > slot * SLOT) return held;
    let rows = held === undefined ? FIRST_CHUNK_ROWS : (held.length / SLOT) * 2;
    while (rows <= slot) rows *= 2;
    const chunk = Buffer.alloc(Math.min(CHUNK_ROWS, rows) * SLOT, PAD);
    held?.copy(chunk);
    this.chunks[k] = chunk;
    return chunk;
  }

  /** The row's session id (as the summary has it; kept lowercased). */
  set(row: number, id: string): void {
    const text = this.chunkFor(row);
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
    const text = this.chunks[row >>> CHUNK_BITS];
    const at = (row & (CHUNK_ROWS - 1)) * SLOT;
    // A slot past its chunk's end was never set.
    if (text !== undefined && at < text.length) text.fill(PAD, at, at + SLOT);
  }

  /** Mark (1) in `hits`, by row, every row whose lowercased id contains `needle` (lowercase, not empty). */
  mark(needle: string, hits: Uint8Array): void {
    // A slot never holds a newline, a byte past ASCII, or an id as long as itself: such a needle is only aside.
    if (fitsSlot(needle)) {
      const bytes = Buffer.from(needle, 'latin1');
      this.chunks.forEach((text, k) => {
        if (text === undefined) return;
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
