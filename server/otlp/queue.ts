// A bounded queue of sessions waiting for the collector, sent one at a time. A send that fails (the
// exporter already retried 429, 502-504 and network errors within its timeout) keeps its session at the head
// and is tried again after a backoff that doubles up to a cap, so a collector that is down for a while
// loses nothing up to the bound; past the bound, offers are refused (the caller keeps them to offer again
// once a send makes room). Nothing here waits on a request: offer() returns at once.
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
    private readonly sent: (item: T) => void,
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
        this.sent(item);
        wait = this.backoff.firstMs;
      } catch (err) {
        this.counts.failed++;
        this.counts.lastError = errorText(err);
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
