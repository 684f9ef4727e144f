// The session page's outlines of big logs, made when they were indexed (they are read alone anyway), kept as
// files in the spool by log path: a 100 MB log's page then opens without a second pass over it.
import type { Spool } from './spool.ts';

/** The outlines kept in the spool, in bytes (a 100 MB log's is about 0.5 MB). */
const BIG_OUTLINE_BYTES = 128 * 1024 * 1024;

export interface HeldOutline {
  stamp: string;
  file: string;
  bytes: number;
}

export class BigOutlines {
  private readonly held = new Map<string, HeldOutline>();
  private bytes = 0;

  constructor(private readonly spool: Spool) {}

  get(path: string): HeldOutline | undefined {
    return this.held.get(path);
  }

  get size(): number {
    return this.held.size;
  }

  values(): IterableIterator<HeldOutline> {
    return this.held.values();
  }

  /** Keep this outline file for the log; the oldest go once the budget is passed. */
  keep(path: string, stamp: string, file: string, bytes: number): void {
    this.drop(path);
    this.held.set(path, { stamp, file, bytes });
    this.bytes += bytes;
    for (const old of [...this.held.keys()]) {
      if (this.bytes <= BIG_OUTLINE_BYTES || old === path) break;
      this.drop(old);
    }
  }

  drop(path: string): void {
    const held = this.held.get(path);
    if (!held) return;
    this.held.delete(path);
    this.bytes -= held.bytes;
    this.spool.remove(held.file);
  }
}
