// The console's private scratch directory for views too big to keep in its heap or to send back through a
// worker's channel (session details, the outlines of big sessions). Made on first use with mkdtemp (mode
// 0700: a session's contents are the user's), removed when the console stops; a console killed with SIGKILL
// leaves its spool behind, which the next console removes once that process is gone.
import { mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

const PREFIX = 'engine-console-spool-';

/** A file written to the spool, and how many bytes of it are the answer's. */
export interface SpooledFile {
  file: string;
  bytes: number;
}

export class Spool {
  private dir: string | null = null;
  private made = 0;

  /** A new file name in the spool (the file is not created). */
  file(ext: string): string {
    if (this.dir === null) {
      sweepStale();
      this.dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
    }
    return join(this.dir, `${++this.made}.${ext}`);
  }

  remove(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }

  close(): void {
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

function sweepStale(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
