// Subscribers of the event stream. Events exist only on /api/events (spec §6); the hub fans each one out to
// every open stream, and tells the watcher whether anybody is listening so it can rest when nobody is.
export type EventName = 'changed' | 'job' | 'replay';

export interface HubEvent {
  event: EventName;
  data: unknown;
}

type Listener = (e: HubEvent) => void;

export class Hub {
  private readonly listeners = new Set<Listener>();
  private readonly closers = new Set<() => void>();
  private readonly firstHooks = new Set<() => void>();

  /** Run `hook` when a listener arrives while nobody listened (before it is added); returns an unhook. */
  onFirstListener(hook: () => void): () => void {
    this.firstHooks.add(hook);
    return () => this.firstHooks.delete(hook);
  }

  subscribe(listener: Listener, close: () => void): () => void {
    if (this.listeners.size === 0) for (const hook of this.firstHooks) hook();
    this.listeners.add(listener);
    this.closers.add(close);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(close);
    };
  }

  get listening(): number {
    return this.listeners.size;
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
