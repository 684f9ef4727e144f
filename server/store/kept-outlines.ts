// The big logs' outlines kept between runs, beside the saved index in the cache directory (never in the data
// directory): a restart then opens the biggest session's page from a file of half a MB instead of a second
// pass over its 100 MB log. A file is named by the log's path and its stamps, so one found is one made from
// the log exactly as it is now; a log that changed simply has no file. Written whole (a temp file renamed).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

const TEMP = '.tmp';

export interface KeptOutline {
  file: string;
  bytes: number;
}

export class KeptOutlines {
  private made = 0;

  /**
   * `dir`: where they are kept (made 0700 on first write); `write`: false under --read-only (kept ones are
   * still read); `budget`: the bytes the directory may hold, the oldest files going first.
   */
  constructor(
    readonly dir: string,
    readonly write: boolean,
    private readonly budget: number,
  ) {
    if (write) this.prune();
  }

  /** The outline kept for this log at these stamps, if any. */
  find(path: string, stamp: string): KeptOutline | undefined {
    const file = join(this.dir, nameOf(path, stamp));
    const st = statSync(file, { throwIfNoEntry: false });
    return st?.isFile() ? { file, bytes: st.size } : undefined;
  }

  /** A file name for the pool to write an outline to (then `adopt`ed); null when nothing may be written. */
  tempFile(): string | null {
    if (!this.write) return null;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return join(this.dir, `${process.pid}.${++this.made}${TEMP}`);
  }

  /** The outline written to `temp` becomes the one kept for this log at these stamps. */
  adopt(temp: string, path: string, stamp: string): string {
    const file = join(this.dir, nameOf(path, stamp));
    renameSync(temp, file);
    return file;
  }

  /** At start: temp files of runs that were cut off, and the oldest outlines past the budget. */
  private prune(): void {
    if (!existsSync(this.dir)) return;
    const files = readdirSync(this.dir).flatMap((name) => {
      const file = join(this.dir, name);
      const st = statSync(file, { throwIfNoEntry: false });
      return st?.isFile() ? [{ name, file, bytes: st.size, mtimeMs: st.mtimeMs }] : [];
    });
    let total = 0;
    for (const f of files.sort((a, b) => b.mtimeMs - a.mtimeMs)) {
      const deadTemp = f.name.endsWith(TEMP) && !processAlive(Number(f.name.split('.')[0]));
      total += f.bytes;
      if (deadTemp || total > this.budget) rmSync(f.file, { force: true });
    }
  }
}

function nameOf(path: string, stamp: string): string {
  return `${createHash('sha256').update(`${path}\u0000${stamp}`).digest('hex').slice(0, 40)}.json`;
}
