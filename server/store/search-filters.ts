// The sessions' search filters (search/trigram-filter.ts makes and reads them), in fixed-size slots: an entry
// holds its slot's number. Two arenas: a file of this run in the index cache directory (filter-file.ts), read
// by the search workers, so a million sessions' filters (256 MB) are not in the console's memory; or, with no
// cache directory to write in (--index-cache off, --read-only, one refused), one Buffer in memory, read on the
// event loop. 100k filters are one Buffer or one file, not 100k objects the collector walks.
/** Bytes of one session's filter. */
export const FILTER_BYTES = 256;
const FIRST_SLOTS = 1_024;

/** Where the sessions' search filters are kept, by slot. */
export interface FilterArena {
  /** The file the search workers read a slot's filter from, at `at(slot)`; null: in memory (MemoryFilters' `bytes`). */
  readonly file: string | null;
  /** Stores a filter in `slot` (or a new slot when it is -1); answers its slot (-1: none could be kept). */
  put(slot: number, filter: Uint8Array): number;
  /** Gives `slot` back (nothing when it is -1); answers -1, the slot of no filter. */
  release(slot: number): number;
  /**
   * A copy of a slot's filter (for saving it); null when it cannot be read (the arena let go, or its file failed):
   * saved as one that rules nothing out, it would stand for the session's filter at every later start.
   */
  copy(slot: number): Uint8Array | null;
  /** `copy` into `into` at `at`, with no array made (a save packs a million); false when it cannot be read. */
  copyInto(slot: number, into: Uint8Array, at: number): boolean;
  /** Room for `slots` more filters at once. */
  reserve(slots: number): void;
  /** Where a slot's filter starts, its bytes written; -1 when it cannot be read (the session is searched in full). */
  at(slot: number): number;
  /**
   * A reader's hold: until it is let go, no slot freed meanwhile is taken again, so a slot handed to a search
   * holds the same filter until its workers are done with it. Answers the letting go.
   */
  hold(): () => void;
  /** Bytes held in the console's memory, for the figures. */
  readonly capacity: number;
  /** Let the arena go (its file is removed). */
  close(): void;
}

/** The arena in the console's memory: one Buffer, grown as slots are taken. */
export class MemoryFilters implements FilterArena {
  readonly file = null;
  // Not zeroed: a slot is read only once a filter was put in it, and the pages past the slots used stay untouched (out of the RSS).
  private buf = Buffer.allocUnsafeSlow(FIRST_SLOTS * FILTER_BYTES);
  private used = 0;
  private readonly free: number[] = [];

  /** The arena's bytes: a slot's filter starts at `at(slot)` (valid until the next `put`). */
  get bytes(): Buffer {
    return this.buf;
  }

  get capacity(): number {
    return this.buf.length;
  }

  put(slot: number, filter: Uint8Array): number {
    checkLength(filter);
    const at = slot >= 0 ? slot : this.take();
    this.buf.set(filter, at * FILTER_BYTES);
    return at;
  }

  release(slot: number): number {
    if (slot >= 0) this.free.push(slot);
    return -1;
  }

  copy(slot: number): Uint8Array | null {
    return Uint8Array.prototype.slice.call(this.buf, slot * FILTER_BYTES, (slot + 1) * FILTER_BYTES);
  }

  copyInto(slot: number, into: Uint8Array, at: number): boolean {
    this.buf.copy(into, at, slot * FILTER_BYTES, (slot + 1) * FILTER_BYTES);
    return true;
  }

  /** A restart puts 100k at once: grown by half each time, it copied the arena some 20 times. */
  reserve(slots: number): void {
    const bytes = (this.used + slots) * FILTER_BYTES;
    if (bytes > this.buf.length) this.grow(bytes);
  }

  at(slot: number): number {
    return slot < 0 ? -1 : slot * FILTER_BYTES;
  }

  /** Read on the event loop only, between two of its turns: a rewritten slot is never seen half written. */
  hold(): () => void {
    return () => {};
  }

  close(): void {}

  private grow(bytes: number): void {
    const bigger = Buffer.allocUnsafeSlow(bytes);
    this.buf.copy(bigger, 0, 0, this.used * FILTER_BYTES);
    this.buf = bigger;
  }

  private take(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if ((this.used + 1) * FILTER_BYTES > this.buf.length) {
      // Grown by half: at 100k sessions the arena holds at most half again what it needs.
      this.grow(Math.ceil((this.buf.length * 1.5) / FILTER_BYTES) * FILTER_BYTES);
    }
    return this.used++;
  }
}

export function checkLength(filter: Uint8Array): void {
  if (filter.length !== FILTER_BYTES) throw new Error(`a search filter has ${FILTER_BYTES} bytes, not ${filter.length}`);
}
