// The index lane's put-off work (the search filters and the big logs' outlines made after the cold index)
// waits while a user's long request holds the machine (a download export, which keeps both cores busy):
// niced as it is, that work still took a tenth of the cores from an export asked for right after start.
// A task already running ends first; the next waits until no request holds.

export class PutOff {
  private holds = 0;
  private waiters: (() => void)[] = [];
  private closed = false;

  /** Held until the returned release is called (more than once is harmless). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.wake();
    };
  }

  /** Resolves when the put-off work may run its next task: at once unless a request holds. */
  turn(): Promise<void> {
    if (this.holds === 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The store is closing: nothing waits any more (the work sees it is closed and stops). */
  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
