// Session details (the JSON bytes of GET /api/sessions/:key) by the stamps of the log and its companions,
// kept as files in a private spool directory (mkdtemp, mode 0700, removed when the console stops) and
// bounded by bytes (DETAIL_CACHE_BYTES, 256 MiB: the view of a 100 MB log is about 30 MB). The worker writes
// the bytes straight to the spool and answers only their size: tens of MB sent back through the worker's
// channel are copied and decoded on the event loop in one piece, which stalls every other request for a
// few hundred ms; a file is streamed from disk in small reads. The page cache keeps hot ones in memory,
// outside the console's heap. Requests for the same session at the same stamps share one parse, and each
// gets its own open descriptor, so a file evicted while it is sent is still sent whole.
import { mkdtempSync, openSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionFiles } from '../engine/sessions.ts';
import type { Pool } from '../workers/pool.ts';

export const DETAIL_CACHE_BYTES = 256 * 1024 * 1024;

const SPOOL_PREFIX = 'engine-console-details-';

/** An open detail file: read it from `fd` (the reader closes it), `bytes` long. */
export type DetailBytes = { ok: true; fd: number; bytes: number } | { ok: false; message: string };

type Made = { ok: true; file: string; bytes: number } | { ok: false; message: string };

export class DetailCache {
  private readonly entries = new Map<string, { file: string; bytes: number }>();
  private readonly pending = new Map<string, Promise<Made>>();
  private total = 0;
  private spool: string | null = null;
  private made = 0;

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

  /** How many views were made (parses started), for tests of the sharing. */
  get parses(): number {
    return this.made;
  }

  /** The detail of these files at these stamps, opened: from the spool, from a parse under way, or a new parse. */
  async get(files: SessionFiles, stamp: string): Promise<DetailBytes> {
    const id = `${files.path}\u0000${files.key}\u0000${stamp}`;
    // Twice at most: a file evicted between its parse and this open is made again.
    for (let attempt = 0; ; attempt++) {
      const hit = this.entries.get(id);
      if (hit) {
        this.entries.delete(id);
        this.entries.set(id, hit);
        const opened = openOrNull(hit.file);
        if (opened !== null) return { ok: true, fd: opened, bytes: hit.bytes };
        this.drop(id);
      }
      const made = await this.make(id, files);
      if (!made.ok) return made;
      const opened = openOrNull(made.file);
      if (opened !== null) return { ok: true, fd: opened, bytes: made.bytes };
      if (attempt >= 1) return { ok: false, message: 'the session view was removed from the spool while it was opened; try again' };
    }
  }

  /** Forget every detail of this log (it was deleted or rewritten by the console). */
  forget(path: string): void {
    for (const id of [...this.entries.keys()]) if (id.startsWith(`${path}\u0000`)) this.drop(id);
  }

  /** Remove the spool (the console stops). */
  close(): void {
    if (this.spool !== null) rmSync(this.spool, { recursive: true, force: true });
    this.spool = null;
    this.entries.clear();
    this.total = 0;
  }

  private make(id: string, files: SessionFiles): Promise<Made> {
    const running = this.pending.get(id);
    if (running) return running;
    const file = join(this.spoolDir(), `${++this.made}.json`);
    const work = this.pool
      .run('sessionDetailFileTask', { files: { key: files.key, rel: files.rel, path: files.path, flowLog: files.flowLog, confirmLog: files.confirmLog }, out: file })
      .then(
        (r): Made => {
          this.pending.delete(id);
          if (!r.ok) {
            removeQuietly(file);
            return r;
          }
          this.keep(id, file, r.value);
          return { ok: true, file, bytes: r.value };
        },
        (err: unknown) => {
          this.pending.delete(id);
          removeQuietly(file);
          throw err;
        },
      );
    this.pending.set(id, work);
    return work;
  }

  private keep(id: string, file: string, bytes: number): void {
    // Older stamps of the same log are of no more use.
    const prefix = id.slice(0, id.lastIndexOf('\u0000') + 1);
    for (const other of [...this.entries.keys()]) if (other.startsWith(prefix)) this.drop(other);
    this.entries.set(id, { file, bytes });
    this.total += bytes;
    // Past the bound the least recently used go, but never the one just made (its requests are waiting).
    for (const old of [...this.entries.keys()]) {
      if (this.total <= this.bound || old === id) break;
      this.drop(old);
    }
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.total -= e.bytes;
    // An answer still sending it holds its own descriptor: the bytes stay readable until it closes.
    removeQuietly(e.file);
  }

  private spoolDir(): string {
    if (this.spool === null) {
      sweepStaleSpools();
      this.spool = mkdtempSync(join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`));
    }
    return this.spool;
  }
}

function openOrNull(file: string): number | null {
  try {
    return openSync(file, 'r');
  } catch {
    return null;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Spools of consoles that were killed (SIGKILL leaves no chance to clean up): removed when their process is gone. */
function sweepStaleSpools(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const pid = Number(name.slice(SPOOL_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but is another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
