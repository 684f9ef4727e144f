// The search filters in a file of this run in the index cache directory, read by the search workers
// (search/filter-reads.ts): the console keeps only slot numbers. Made 0600 and new (never one that was
// there, nor through a link), named by the pid, removed on a clean stop; those of runs that are gone are
// removed when the next one makes its own. A slot's bytes are written before it is handed to a search
// (`at`), and a slot a search was handed is never written again while it may read it: a new filter goes to
// another slot, and a freed one is taken again only once the searches holding the arena are done
// (filter-slots.ts). Filters put one after another in contiguous slots (the filter pass, a restart) are
// written together.
import { closeSync, constants, openSync, readdirSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorText } from '../../shared/error-text.ts';
import { FilterSlots } from './filter-slots.ts';
import { processAlive } from './process-alive.ts';
import { FILTER_BYTES, type FilterArena, MemoryFilters, checkLength } from './search-filters.ts';

/** Filters written in one positioned write, and read in one for `copy`. */
const SPAN_SLOTS = 256;
const NAME = /^search-filters\.(\d+)\.\d+\.bin$/;
let arenasMade = 0;

/** A copy of the `i`th filter of a span (a Buffer's own `slice` is a view). */
const copyOut = (span: Buffer, i: number): Uint8Array => Uint8Array.prototype.slice.call(span, i * FILTER_BYTES, (i + 1) * FILTER_BYTES);

/** Removes the filter files of runs that are gone (a kill leaves its file behind). */
function removeDead(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(NAME.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

export class FileFilters implements FilterArena {
  readonly file: string;
  private fd: number;
  private readonly slots = new FilterSlots();
  /** Filters put and not yet written: `staging` slots from `stagedFrom`. */
  private readonly staged = Buffer.allocUnsafeSlow(SPAN_SLOTS * FILTER_BYTES);
  private stagedFrom = 0;
  private staging = 0;
  /** The span `copy` read last: `cachedCount` slots from `cachedFrom`. */
  private readonly cached = Buffer.allocUnsafeSlow(SPAN_SLOTS * FILTER_BYTES);
  private cachedFrom = 0;
  private cachedCount = 0;
  /** A write failed (a full disk) or the arena was let go: no filter is read or kept from then on. */
  private broken = false;

  /** A new file in `dir` (a directory of this user's alone: persisted-index.ts, ensureCacheDir); throws when it cannot be made. */
  constructor(dir: string) {
    removeDead(dir);
    this.file = join(dir, `search-filters.${process.pid}.${arenasMade++}.bin`);
    this.fd = openSync(this.file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  }

  get capacity(): number {
    return this.staged.length + this.cached.length + this.slots.count * 8;
  }

  put(slot: number, filter: Uint8Array): number {
    checkLength(filter);
    if (this.broken) return this.release(slot);
    // Never written in place: a search may be reading the old filter.
    const at = this.slots.take();
    this.release(slot);
    this.stage(at, filter);
    return at;
  }

  release(slot: number): number {
    this.slots.give(slot);
    return -1;
  }

  copy(slot: number): Uint8Array | null {
    if (this.isStaged(slot)) return copyOut(this.staged, slot - this.stagedFrom);
    if (!this.isCached(slot) && !this.readSpan(slot)) return null;
    return copyOut(this.cached, slot - this.cachedFrom);
  }

  copyInto(slot: number, into: Uint8Array, at: number): boolean {
    if (this.isStaged(slot)) {
      this.staged.copy(into, at, (slot - this.stagedFrom) * FILTER_BYTES, (slot - this.stagedFrom + 1) * FILTER_BYTES);
      return true;
    }
    if (!this.isCached(slot) && !this.readSpan(slot)) return false;
    this.cached.copy(into, at, (slot - this.cachedFrom) * FILTER_BYTES, (slot - this.cachedFrom + 1) * FILTER_BYTES);
    return true;
  }

  /** Nothing to make room in: the file grows as slots are written. */
  reserve(): void {}

  at(slot: number): number {
    if (slot < 0 || this.broken) return -1;
    if (this.isStaged(slot)) this.flush();
    return this.broken ? -1 : slot * FILTER_BYTES;
  }

  hold(): () => void {
    return this.slots.hold();
  }

  close(): void {
    if (this.broken && this.fd < 0) return;
    this.broken = true;
    this.staging = 0;
    this.cachedCount = 0;
    try {
      closeSync(this.fd);
      unlinkSync(this.file);
    } catch {
      // Gone already: nothing to remove.
    }
    this.fd = -1;
  }

  private isStaged(slot: number): boolean {
    return this.staging > 0 && slot >= this.stagedFrom && slot < this.stagedFrom + this.staging;
  }

  private isCached(slot: number): boolean {
    return slot >= this.cachedFrom && slot < this.cachedFrom + this.cachedCount;
  }

  private stage(slot: number, filter: Uint8Array): void {
    if (this.isCached(slot)) this.cachedCount = 0;
    if (this.staging > 0 && (slot !== this.stagedFrom + this.staging || this.staging === SPAN_SLOTS)) this.flush();
    if (this.broken) return;
    if (this.staging === 0) this.stagedFrom = slot;
    this.staged.set(filter, this.staging * FILTER_BYTES);
    this.staging++;
  }

  /** Writes the staged filters; a failure breaks the arena (every session is then searched in full). */
  private flush(): void {
    if (this.staging === 0) return;
    const length = this.staging * FILTER_BYTES;
    this.staging = 0;
    try {
      for (let done = 0; done < length; ) done += writeSync(this.fd, this.staged, done, length - done, this.stagedFrom * FILTER_BYTES + done);
    } catch {
      this.broken = true;
    }
  }

  /** Reads the span of slots from `slot` for `copy`; false when it cannot. */
  private readSpan(slot: number): boolean {
    this.cachedCount = 0;
    // The span may hold staged slots: written first, so what is read is theirs.
    this.flush();
    if (this.broken) return false;
    const count = Math.min(SPAN_SLOTS, this.slots.size - slot);
    try {
      let done = 0;
      for (let n = -1; n !== 0 && done < count * FILTER_BYTES; done += n) n = readSync(this.fd, this.cached, done, count * FILTER_BYTES - done, slot * FILTER_BYTES + done);
      this.cachedFrom = slot;
      this.cachedCount = Math.floor(done / FILTER_BYTES);
    } catch {
      return false;
    }
    return this.cachedCount > 0;
  }
}

/** The arena of a run: a file in `dir`, the index cache directory when it is written in; else, or when no file can be made there, memory. */
export function filterArenaIn(dir: string | null, warn: (line: string) => void): FilterArena {
  if (dir === null) return new MemoryFilters();
  try {
    return new FileFilters(dir);
  } catch (err) {
    warn(`engine-console: the search filters are kept in memory: no file can be made in ${dir} (${errorText(err)})`);
    return new MemoryFilters();
  }
}
