// A look at the heap while a log is read, for workers (pool.ts) whose heap is capped: a log whose view will
// not fit is refused with a typed error before the heap is full. Without it, the worker spends a long time
// in last-resort collections before it dies, and every request queued behind it waits that long. The look
// is cheap (every 256 lines, or at each long line); only near the limit does it collect the garbage (the
// workers run with --expose-gc) to tell live data from garbage. In a process without a cap (tests, the
// CLI side) the limit is far away and nothing happens.
import { getHeapStatistics } from 'node:v8';

/** Where a pool lane with a larger heap says the heap (MB) a log is read within, so every lane refuses the same logs. */
export const HEAP_GUARD_ENV = 'ENGINE_CONSOLE_HEAP_GUARD_MB';

/**
 * The heap a log is read within: the process's limit, or less where its lane says so. Neither changes while
 * the process lives, and asking (the environment, the heap's statistics) for every log read was a share of an
 * export's time, so it is asked once.
 */
let readingHeapBytes: number | null = null;
function readingHeap(): number {
  if (readingHeapBytes !== null) return readingHeapBytes;
  const limit = getHeapStatistics().heap_size_limit;
  const mb = Number(process.env[HEAP_GUARD_ENV]);
  return (readingHeapBytes = Number.isFinite(mb) && mb > 0 ? Math.min(limit, mb * 1048576) : limit);
}

/** The share of the heap's limit that live data may fill while a log is read. */
const LIVE_SHARE = 0.5;
const EVERY_LINES = 256;
const LONG_LINE = 64 * 1024;

export class HeapGuard {
  private lines = 0;
  private readonly heap = readingHeap();
  private readonly limit = this.heap * LIVE_SHARE;
  private readonly gc = (globalThis as { gc?: () => void }).gc;

  /** Throws (with `what` for the message) when the live heap is past the limit; call once per line. */
  check(lineBytes: number, what: () => string): void {
    if (++this.lines % EVERY_LINES !== 0 && lineBytes < LONG_LINE) return;
    if (getHeapStatistics().used_heap_size < this.limit || this.gc === undefined) return;
    this.gc();
    const live = getHeapStatistics().used_heap_size;
    if (live < this.limit) return;
    const mb = (n: number) => Math.round(n / 1048576);
    throw new Error(`${what()} needs more than the ${mb(this.heap)} MB of heap a worker may use (${mb(live)} MB in use)`);
  }
}
