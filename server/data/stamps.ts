// File stamps (size and mtime) for the session logs, shared by the sessions list and the 1 s watch, so
// 10k logs cost a fraction of 10k stats per second. A stamp read less than half a second ago is reused (the
// spec's poll is a second: nothing promises a finer view, and each tick still reads afresh). A log quiet for ten minutes (finished recording)
// is re-read every ten seconds rather than every second; a file created, deleted or renamed shows at once
// through its directory, which the catalog watches.

import { statSync } from 'node:fs';

interface Entry {
  stamp: string;
  mtimeMs: number;
  checkedAt: number;
}

const FRESH_MS = 500;
const QUIET_MS = 10 * 60_000;
const QUIET_RECHECK_MS = 10_000;

export class StampBook {
  private readonly entries = new Map<string, Entry>();

  /** `size:mtime`, or '-' when the file is missing (or no path). */
  stamp(path: string | null, now = Date.now()): string {
    if (path === null) return '-';
    const e = this.entries.get(path);
    if (e) {
      const age = now - e.checkedAt;
      if (age < FRESH_MS) return e.stamp;
      if (now - e.mtimeMs > QUIET_MS && age < QUIET_RECHECK_MS) return e.stamp;
    }
    const st = statSync(path, { throwIfNoEntry: false });
    const entry = st ? { stamp: `${st.size}:${st.mtimeMs}`, mtimeMs: st.mtimeMs, checkedAt: now } : { stamp: '-', mtimeMs: 0, checkedAt: now };
    this.entries.set(path, entry);
    return entry.stamp;
  }

  /** Forget a file (after the console itself moved or rewrote it). */
  forget(path: string): void {
    this.entries.delete(path);
  }

  /** Keep only the files the latest scan has. */
  retain(paths: ReadonlySet<string>): void {
    for (const p of this.entries.keys()) if (!paths.has(p)) this.entries.delete(p);
  }
}

/** One book per process: the list and the watch read the same files. */
export const sessionStamps = new StampBook();
