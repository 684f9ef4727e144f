// A look at the heap while a log is read, for workers (pool.ts) whose heap is capped: a log whose view will
// not fit is refused with a typed error before the heap is full. Without it, the worker spends a long time
// in last-resort collections before it dies, and every request queued behind it waits that long. The look
// is cheap (every 256 lines, or at each long line); only near the limit does it collect the garbage (the
// workers run with --expose-gc) to tell live data from garbage. In a process without a cap (tests, the
// CLI side) the limit is far away and nothing happens.
import { getHeapStatistics } from 'node:v8';

/** The share of the heap's limit that live data may fill while a log is read. */
const LIVE_SHARE = 0.5;
const EVERY_LINES = 256;
const LONG_LINE = 64 * 1024;

export class HeapGuard {
  private lines = 0;
  private readonly limit = getHeapStatistics().heap_size_limit * LIVE_SHARE;
  private readonly gc = (globalThis as { gc?: () => void }).gc;

  /** Throws (with `what` for the message) when the live heap is past the limit; call once per line. */
  check(lineBytes: number, what: () => string): void {
    if (++this.lines % EVERY_LINES !== 0 && lineBytes < LONG_LINE) return;
    if (getHeapStatistics().used_heap_size < this.limit || this.gc === undefined) return;
    this.gc();
    const live = getHeapStatistics().used_heap_size;
    if (live < this.limit) return;
    const mb = (n: number) => Math.round(n / 1048576);
    throw new Error(`${what()} needs more than the ${mb(getHeapStatistics().heap_size_limit)} MB of heap a worker may use (${mb(live)} MB in use)`);
  }
}
