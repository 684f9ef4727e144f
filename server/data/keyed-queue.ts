// Work that must not overlap, run one at a time per key in the order it arrives (a promise chain per key):
// two commits of one deployment never pick the same version number.
export class KeyedQueue {
  private readonly running = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.running.get(key) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(work);
    this.running.set(key, next);
    try {
      return await next;
    } finally {
      if (this.running.get(key) === next) this.running.delete(key);
    }
  }
}
