// A log read in whole lines, a chunk at a time, through one reused buffer: a search holds at most a chunk
// (or one longer line) of any log, however big, and a growing log is read up to where a read first comes short.
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK_BYTES = 1 << 20;

export class ChunkReader {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);

  /**
   * Calls `each` with buffers of whole lines (the last one may lack its `\n`) and the offset of the chunk in
   * the file; stops when `each` answers false. Throws what opening or reading throws.
   */
  read(path: string, each: (bytes: Buffer, length: number, base: number) => boolean): void {
    const fd = openSync(path, 'r');
    try {
      let base = 0;
      let filled = 0;
      let ended = false;
      while (!ended || filled > 0) {
        if (filled === this.buf.length) this.grow();
        const want = this.buf.length - filled;
        const n = ended ? 0 : readSync(fd, this.buf, filled, want, base + filled);
        // A short read is the end of what the file held: no size asked first, one syscall less a log.
        if (n < want) ended = true;
        filled += n;
        const cut = ended ? filled : this.buf.lastIndexOf(10, filled - 1) + 1;
        if (cut === 0) continue; // one line longer than the buffer: read on
        // A view of the whole lines only: a search in it never runs into the buffer's stale tail.
        if (!each(this.buf.subarray(0, cut), cut, base)) return;
        this.buf.copy(this.buf, 0, cut, filled);
        base += cut;
        filled -= cut;
      }
    } finally {
      closeSync(fd);
    }
  }

  private grow(): void {
    const bigger = Buffer.allocUnsafe(this.buf.length * 2);
    this.buf.copy(bigger);
    this.buf = bigger;
  }
}
