// What was sent to the collector, remembered across restarts in the user's cache directory (never the data
// directory): each log's relative path with the stamp it had when sent, so a log that grew is sent again
// (same ids: the store keeps one copy). Written whole through a temp file and a rename, at most once a second.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../data/atomic.ts';

const SentSchema = v.object({ sent: v.record(v.string(), v.string()) });

export class SentMemory {
  private sent = new Map<string, string>();
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(private readonly file: string) {}

  /** Loads the file; a missing or unreadable one is an empty memory (sessions are then sent again). */
  async load(): Promise<void> {
    try {
      const parsed = v.safeParse(SentSchema, JSON.parse(await readFile(this.file, 'utf8')));
      if (parsed.success) this.sent = new Map(Object.entries(parsed.output.sent));
    } catch {
      this.sent = new Map();
    }
  }

  has(rel: string, stamp: string): boolean {
    return this.sent.get(rel) === stamp;
  }

  remember(rel: string, stamp: string): void {
    this.sent.set(rel, stamp);
    this.dirty = true;
  }

  /** Writes what changed since the last write; one write at a time. */
  flush(): Promise<void> {
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const body = JSON.stringify({ sent: Object.fromEntries(this.sent) });
    this.writing = this.writing
      .then(async () => {
        await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
        await writeFileAtomic(this.file, body);
      })
      .catch(() => {
        this.dirty = true;
      });
    return this.writing;
  }
}
