// A bounded queue of sessions waiting for the collector, sent one at a time. A send that fails (the
// exporter already retried 429, 502-504 and network errors within its timeout) keeps its session at the head
// and is tried again after a backoff that doubles up to a cap, so a collector that is down for a while
// loses nothing up to the bound; past the bound, offers are refused (the caller keeps them to offer again
// once a send makes room). An item that can never be sent as it is (its log does not read, or kills its
// worker) is taken out at once, counted as failed, so it never holds up the items behind it. Nothing here
// waits on a request: offer() returns at once.
import { errorText } from '../../shared/error-text.ts';

export interface QueueCounts {
  queued: number;
  sent: number;
  failed: number;
  lastError: string | null;
}

export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/** Thrown by a send whose item cannot be sent as it is: trying it again would fail the same way. */
export class Unsendable extends Error {}

export const BACKOFF: Backoff = { firstMs: 1_000, maxMs: 60_000 };

export class SendQueue<T> {
  private readonly items: T[] = [];
  private pumping = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  readonly counts: QueueCounts = { queued: 0, sent: 0, failed: 0, lastError: null };

  constructor(
    private readonly max: number,
    private readonly send: (item: T) => Promise<void>,
    /** Called once an item has left the queue: `true` when it was sent, `false` when it was unsendable. */
    private readonly left: (item: T, sent: boolean) => void,
    private readonly backoff: Backoff = BACKOFF,
  ) {}

  /** Queues the item, or refuses it when the queue is full (or stopped). */
  offer(item: T): boolean {
    if (this.stopped || this.items.length >= this.max) return false;
    this.items.push(item);
    this.counts.queued = this.items.length;
    if (!this.pumping) void this.pump();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    let wait = this.backoff.firstMs;
    while (this.items.length > 0 && !this.stopped) {
      const item = this.items[0]!;
      try {
        await this.send(item);
        this.items.shift();
        this.counts.queued = this.items.length;
        this.counts.sent++;
        this.left(item, true);
        wait = this.backoff.firstMs;
      } catch (err) {
        this.counts.failed++;
        this.counts.lastError = errorText(err);
        if (err instanceof Unsendable) {
          this.items.shift();
          this.counts.queued = this.items.length;
          this.left(item, false);
          continue;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, wait).unref();
        });
        this.wake = null;
        wait = Math.min(wait * 2, this.backoff.maxMs);
      }
    }
    this.pumping = false;
  }
}
