// What was sent to the collector, remembered across restarts in the user's cache directory (never the data
// directory): each log's relative path with the stamp it had when sent, so a log that grew is sent again
// (same ids: the store keeps one copy), or when it could not be sent, so it is tried again only once it
// changes. A send is appended to a journal beside the file (`<file>.log`, one `[rel, stamp]` line each,
// written in batches); the journal is folded into the file, written whole through
// a temp file and a rename, once it holds more lines than the file has sessions, so a backlog of 100k sends
// costs each send a line instead of the whole file. A line cut by a crash is ignored.
import { constants } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../data/atomic.ts';
import { ensureCacheDir } from '../store/persisted-index.ts';

const SentSchema = v.object({ sent: v.record(v.string(), v.string()) });
const LineSchema = v.tuple([v.string(), v.string()]);

/** Marks a remembered stamp as one the log could not be sent with (a send stamp never starts so). */
const UNSENDABLE = '!';

/** A journal shorter than this is never folded: a few sends do not rewrite the whole file. */
const FOLD_AFTER_LINES = 10_000;

export class SentMemory {
  private sent = new Map<string, string>();
  private pending: string[] = [];
  private journalLines = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly journal: string;
  /** Why nothing is read or written (the directory is not this user's alone), after load(); null when it is. */
  refused: string | null = null;

  constructor(private readonly file: string) {
    this.journal = `${file}.log`;
  }

  /** Loads the file and its journal; a missing or unreadable one is an empty memory (sessions are then sent again). */
  async load(): Promise<void> {
    this.sent = new Map();
    // A directory another user may write is neither read (they could say what was sent) nor written.
    this.refused = ensureCacheDir(dirname(this.file));
    if (this.refused !== null) return;
    try {
      const parsed = v.safeParse(SentSchema, JSON.parse(await readFile(this.file, 'utf8')));
      if (parsed.success) this.sent = new Map(Object.entries(parsed.output.sent));
    } catch {
      // No file yet, or not ours: the journal alone, or nothing.
    }
    const lines = await readFile(this.journal, 'utf8').then((t) => t.split('\n'), () => []);
    for (const line of lines) {
      let parsed: v.SafeParseResult<typeof LineSchema>;
      try {
        parsed = v.safeParse(LineSchema, JSON.parse(line));
      } catch {
        continue;
      }
      if (!parsed.success) continue;
      this.sent.set(parsed.output[0], parsed.output[1]);
      this.journalLines++;
    }
  }

  has(rel: string, stamp: string): boolean {
    return this.sent.get(rel) === stamp;
  }

  /** The log could not be sent (it does not read, or is too big for a worker) as it is now. */
  unsendable(rel: string, stamp: string): boolean {
    return this.sent.get(rel) === `${UNSENDABLE}${stamp}`;
  }

  remember(rel: string, stamp: string): void {
    this.note(rel, stamp);
  }

  /** Remembers that the log cannot be sent as it is now: a restart does not try it again until it changes. */
  rememberUnsendable(rel: string, stamp: string): void {
    this.note(rel, `${UNSENDABLE}${stamp}`);
  }

  private note(rel: string, value: string): void {
    this.sent.set(rel, value);
    this.pending.push(`${JSON.stringify([rel, value])}\n`);
  }

  /** Writes what was remembered since the last write, after the writes asked before it (each finds the batch gathered meanwhile). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeAll());
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    if (this.refused !== null) {
      this.pending = [];
      return;
    }
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      try {
        await appendJournal(this.journal, lines.join(''));
      } catch {
        // Kept for the next flush (a full disk, a cache directory removed meanwhile).
        this.pending = [...lines, ...this.pending];
        return;
      }
      this.journalLines += lines.length;
      // A fold that fails is tried again after the next batch; the journal still holds every line.
      if (this.journalLines > Math.max(FOLD_AFTER_LINES, this.sent.size)) await this.fold().catch(() => undefined);
    }
  }

  /** The whole memory into the file, then an empty journal: a crash between them replays lines already in it. */
  private async fold(): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify({ sent: Object.fromEntries(this.sent) }));
    await rm(this.journal, { force: true });
    this.journalLines = 0;
  }
}

/** Appends to the journal, never through a symbolic link put in its place. */
async function appendJournal(path: string, text: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
