// The sessions' search filters (search/trigram-filter.ts makes and reads them), kept off the heap in one
// arena of fixed-size slots: an entry holds its slot's number, and a slot freed by a re-read or a removed
// log is the next one taken. 100k filters are one Buffer, not 100k objects the collector walks.

/** Bytes of one session's filter. */
export const FILTER_BYTES = 256;
const FIRST_SLOTS = 1_024;

export class FilterArena {
  // Not zeroed: a slot is read only once a filter was put in it, and the pages past the slots used stay untouched (out of the RSS).
  private buf = Buffer.allocUnsafeSlow(FIRST_SLOTS * FILTER_BYTES);
  private used = 0;
  private readonly free: number[] = [];

  /** The arena's bytes: a slot's filter starts at `slot * FILTER_BYTES` (valid until the next `put`). */
  get bytes(): Buffer {
    return this.buf;
  }

  /** Bytes held, for the figures. */
  get capacity(): number {
    return this.buf.length;
  }

  /** Stores a filter in `slot` (or a new slot when it is -1); answers its slot. */
  put(slot: number, filter: Uint8Array): number {
    if (filter.length !== FILTER_BYTES) throw new Error(`a search filter has ${FILTER_BYTES} bytes, not ${filter.length}`);
    const at = slot >= 0 ? slot : this.take();
    this.buf.set(filter, at * FILTER_BYTES);
    return at;
  }

  /** Gives `slot` back (nothing when it is -1); answers -1, the slot of no filter. */
  release(slot: number): number {
    if (slot >= 0) this.free.push(slot);
    return -1;
  }

  /** A copy of a slot's filter (for saving it). */
  copy(slot: number): Uint8Array {
    return Uint8Array.prototype.slice.call(this.buf, slot * FILTER_BYTES, (slot + 1) * FILTER_BYTES);
  }

  /** Room for `slots` more filters at once (a restart puts 100k: grown by half each time, it copied the arena some 20 times). */
  reserve(slots: number): void {
    const bytes = (this.used + slots) * FILTER_BYTES;
    if (bytes > this.buf.length) this.grow(bytes);
  }

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
