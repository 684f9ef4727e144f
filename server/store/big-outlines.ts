// The session page's outlines of big logs, made when they were indexed (they are read alone anyway), by log
// path: a 100 MB log's page then opens without a second pass over it. Kept in the spool, or, where the index
// is saved between runs, beside it (kept-outlines.ts), so they outlive a restart too.
import type { KeptOutlines } from './kept-outlines.ts';
import type { Spool } from './spool.ts';

/** The outlines kept, in bytes (a 100 MB log's is about 0.5 MB). */
export const BIG_OUTLINE_BYTES = 128 * 1024 * 1024;

export interface HeldOutline {
  stamp: string;
  file: string;
  bytes: number;
}

export class BigOutlines {
  private readonly held = new Map<string, HeldOutline>();
  /** Outlines being made now (by the index lane, or for a page that asked first), by log path. */
  private readonly making = new Map<string, { stamp: string; done: Promise<void> }>();
  private bytes = 0;

  constructor(
    private readonly spool: Spool,
    private readonly kept: KeptOutlines | null = null,
  ) {}

  /** The outline of this log made from it as it is now (its stamps), if one is held or was kept by an earlier run. */
  find(path: string, stamp: string): HeldOutline | undefined {
    const held = this.held.get(path);
    if (held?.stamp === stamp) return held;
    const kept = this.kept?.find(path, stamp);
    if (!kept) return undefined;
    this.hold(path, { stamp, ...kept });
    return this.held.get(path);
  }

  /** Resolves once the outline of this log at this stamp that is being made now is kept or given up; undefined when none is. */
  beingMade(path: string, stamp: string): Promise<void> | undefined {
    const m = this.making.get(path);
    return m?.stamp === stamp ? m.done : undefined;
  }

  /**
   * Makes the outline of this log at this stamp: `write` writes it into the file given (one of `file()`) and
   * answers the stamp it read it at. Kept when that is this stamp and `still()` holds, else its file goes.
   * Whoever asks meanwhile waits for it (beingMade).
   */
  async make(path: string, stamp: string, write: (out: string) => Promise<{ stamp: string; bytes: number } | null>, still: () => boolean = () => true): Promise<void> {
    const made = (async () => {
      const out = this.file();
      const r = await write(out).catch(() => null);
      if (r !== null && r.stamp === stamp && still()) this.keep(path, stamp, out, r.bytes);
      else this.discard(out);
    })();
    this.whileMaking(path, stamp, made);
    await made;
  }

  /** The outline of this log at this stamp is being made until `work` settles (whoever asks meanwhile waits for it). */
  whileMaking(path: string, stamp: string, work: Promise<unknown>): void {
    const entry = { stamp, done: work.then(() => undefined, () => undefined) };
    this.making.set(path, entry);
    void entry.done.then(() => {
      if (this.making.get(path) === entry) this.making.delete(path);
    });
  }

  get size(): number {
    return this.held.size;
  }

  values(): IterableIterator<HeldOutline> {
    return this.held.values();
  }

  /** Where the pool writes a new outline, to be kept with `keep`. */
  file(): string {
    return this.kept?.tempFile() ?? this.spool.file('outline.json');
  }

  /** Keep this outline file (from `file()`) for the log; the oldest go once the budget is passed. */
  keep(path: string, stamp: string, file: string, bytes: number): void {
    let kept = file;
    if (this.kept !== null && file.startsWith(`${this.kept.dir}/`)) {
      try {
        kept = this.kept.adopt(file, path, stamp);
      } catch {
        // The cache directory went away or filled up: the page parses the log instead.
        this.spool.remove(file);
        return;
      }
    }
    this.hold(path, { stamp, file: kept, bytes });
  }

  /** An outline file from `file()` that is not kept. */
  discard(file: string): void {
    this.spool.remove(file);
  }

  drop(path: string): void {
    const held = this.held.get(path);
    if (!held) return;
    this.held.delete(path);
    this.bytes -= held.bytes;
    this.spool.remove(held.file);
  }

  private hold(path: string, outline: HeldOutline): void {
    const before = this.held.get(path);
    if (before && before.file !== outline.file) this.drop(path);
    else if (before) {
      this.held.delete(path);
      this.bytes -= before.bytes;
    }
    this.held.set(path, outline);
    this.bytes += outline.bytes;
    for (const old of [...this.held.keys()]) {
      if (this.bytes <= BIG_OUTLINE_BYTES || old === path) break;
      this.drop(old);
    }
  }
}
