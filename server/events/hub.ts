// Subscribers of the event stream. Events exist only on /api/events (spec §6); the hub fans each one out to
// every open stream.
export type EventName = 'changed' | 'job' | 'replay';

export interface HubEvent {
  event: EventName;
  data: unknown;
}

type Listener = (e: HubEvent) => void;

export class Hub {
  private readonly listeners = new Set<Listener>();
  private readonly closers = new Set<() => void>();

  subscribe(listener: Listener, close: () => void): () => void {
    this.listeners.add(listener);
    this.closers.add(close);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(close);
    };
  }

  publish(event: EventName, data: unknown): void {
    for (const l of this.listeners) l({ event, data });
  }

  /** End every open stream (on stop, so open pages do not keep the server up). */
  closeAll(): void {
    for (const c of [...this.closers]) c();
    this.listeners.clear();
    this.closers.clear();
  }
}
