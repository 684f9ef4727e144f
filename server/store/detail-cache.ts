// Session details (the JSON bytes of GET /api/sessions/:key) by the stamps of the log and its companions,
// in a least-recently-used cache bounded by bytes (DETAIL_CACHE_BYTES, 64 MiB: the view of a 100 MB log
// is about 30 MB). Requests for the same session at the same stamps share one parse. The bytes are made
// in the worker pool and moved, not copied, to this thread; they are never changed, so every answer
// streams the same chunks.
import type { SessionFiles } from '../engine/sessions.ts';
import type { Pool } from '../workers/pool.ts';

export const DETAIL_CACHE_BYTES = 64 * 1024 * 1024;

export type DetailBytes = { ok: true; chunks: readonly Uint8Array[]; bytes: number } | { ok: false; message: string };

export class DetailCache {
  private readonly entries = new Map<string, { chunks: readonly Uint8Array[]; bytes: number }>();
  private readonly pending = new Map<string, Promise<DetailBytes>>();
  private total = 0;

  constructor(
    private readonly pool: Pool,
    private readonly bound = DETAIL_CACHE_BYTES,
  ) {}

  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The detail of these files at these stamps: from the cache, from a parse under way, or a new parse. */
  get(files: SessionFiles, stamp: string): Promise<DetailBytes> {
    const id = `${files.path}\u0000${files.key}\u0000${stamp}`;
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return Promise.resolve({ ok: true, ...hit });
    }
    const running = this.pending.get(id);
    if (running) return running;
    const work = this.parse(files).then((r) => {
      this.pending.delete(id);
      if (r.ok) this.keep(id, r.chunks, r.bytes);
      return r;
    }, (err: unknown) => {
      this.pending.delete(id);
      throw err;
    });
    this.pending.set(id, work);
    return work;
  }

  /** Forget every detail of this log (it was deleted or rewritten by the console). */
  forget(path: string): void {
    for (const [id, e] of this.entries) {
      if (id.startsWith(`${path}\u0000`)) {
        this.entries.delete(id);
        this.total -= e.bytes;
      }
    }
  }

  private async parse(files: SessionFiles): Promise<DetailBytes> {
    const r = await this.pool.run('sessionDetailBytesTask', { key: files.key, rel: files.rel, path: files.path, flowLog: files.flowLog, confirmLog: files.confirmLog });
    if (typeof r === 'string') return { ok: false, message: r };
    let bytes = 0;
    for (const c of r) bytes += c.byteLength;
    return { ok: true, chunks: r, bytes };
  }

  private keep(id: string, chunks: readonly Uint8Array[], bytes: number): void {
    if (bytes > this.bound) return;
    // Older stamps of the same log are of no more use.
    const prefix = id.slice(0, id.lastIndexOf('\u0000') + 1);
    for (const [other, e] of this.entries) {
      if (other.startsWith(prefix)) {
        this.entries.delete(other);
        this.total -= e.bytes;
      }
    }
    this.entries.set(id, { chunks, bytes });
    this.total += bytes;
    for (const [old, e] of this.entries) {
      if (this.total <= this.bound) break;
      this.entries.delete(old);
      this.total -= e.bytes;
    }
  }
}
