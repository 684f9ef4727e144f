// When the index is saved between runs (persisted-index.ts says how): read once at start; written in the
// background once the cold index is in, then at most every minute while something changed (less often when
// saves are long: at most 5 % of the time), and on a clean stop; never by a read-only console. A file that cannot be used costs one stderr line and is replaced.
import { statSync } from 'node:fs';
import { errorText } from '../../shared/error-text.ts';
import { loadIndex, type SavedEntries, SavedIndexRefused, type SavedSource, saveIndex } from './persisted-index.ts';
import type { TreeDir } from './saved-tree.ts';
import type { SessionEntry, SessionIndex } from './session-index.ts';
import { summaryFormat } from './summary-format.ts';

const SAVE_EVERY_MS = 60_000;
/** The share of the time saves may take: a save of a million sessions takes seconds, and one a minute would be a tenth. */
const SAVING_SHARE = 0.05;

/** How often the saver looks whether a save is due. */
const LOOK_EVERY_MS = 10_000;

/**
 * Whether a save is due `now` (ms), the last having ended at `lastEnd` after `lastMs` of work: at most every
 * SAVE_EVERY_MS, and no sooner than keeps saving to SAVING_SHARE of the time.
 */
export function saveDue(now: number, lastEnd: number, lastMs: number): boolean {
  return now - lastEnd >= Math.max(SAVE_EVERY_MS, lastMs / SAVING_SHARE - lastMs);
}
/** Logs read by a cold index whose filters (filter-pass.ts: a thousand a task) are made soon enough to save only after. */
const FEW_READ = 2_000;

export interface SavedIndexOptions {
  /** The file (persisted-index.ts: savedIndexPath). */
  file: string;
  /** Write it (false under --read-only: it is still read). */
  write: boolean;
}

export class IndexSaver {
  private savedVersion = -1;
  private saving: Promise<void> | null = null;
  /** When the last save ended (performance.now(); the cold index's end until one has) and how long it took. */
  private lastEnd = 0;
  private lastMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly options: SavedIndexOptions,
    private readonly dataDir: string,
    private readonly sessions: SessionIndex,
    private readonly warn: (line: string) => void,
    /** The tree's still directories, saved beside the entries (saved-tree.ts). */
    private readonly stillDirs: () => Promise<TreeDir[]> = async () => [],
  ) {}

  /** The bytes of the index an earlier run left (0: none; it may still be refused when read). */
  fileBytes(): number {
    return statSync(this.options.file, { throwIfNoEntry: false })?.size ?? 0;
  }

  /** The entries an earlier run saved, or null (none, or refused with one line on stderr); `onSource`: loadIndex's. */
  async load(onSource?: (source: SavedSource) => void): Promise<SavedEntries | null> {
    const file = this.options.file;
    const replaced = this.options.write ? 'replaced' : 'not replaced under --read-only';
    // A chunk found corrupt once taking has begun: its logs are read again, the rest of the file stays used.
    const onCorrupt = (): void => this.warn(`engine-console: a part of the saved index ${file} is not used (it is corrupt: its checksum differs); its logs are read again and it is ${replaced}`);
    try {
      return await loadIndex(file, await summaryFormat(), this.dataDir, onSource, onCorrupt);
    } catch (err) {
      const why = err instanceof SavedIndexRefused ? err.message : errorText(err);
      const then = this.options.write ? 'it is rebuilt and replaced' : 'it is rebuilt, and not replaced under --read-only';
      this.warn(`engine-console: the saved index ${file} is not used (${why}); ${then}`);
      return null;
    }
  }

  /**
   * The cold index is in, having read `read` logs itself: save now, unless it found every log as the saved index
   * had it, or it read few (a restart: the filters they lack are made in moments, and the save after them
   * writes all; at a million sessions a save is seconds of work); then, while something changed, every minute
   * or as often as keeps saves to 5 % of the time (saveDue).
   */
  coldIndexDone(matchedSaved: boolean, read: number): void {
    if (!this.options.write || this.closed) return;
    this.lastEnd = performance.now();
    if (matchedSaved) this.savedVersion = this.sessions.version;
    else if (read > FEW_READ) void this.save();
    this.timer = setInterval(() => {
      if (this.sessions.version !== this.savedVersion && saveDue(performance.now(), this.lastEnd, this.lastMs)) void this.save();
    }, LOOK_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Save what the index holds now (one save at a time; a save asked for during one waits for it). Once closed,
   * none begins and one in flight is let go (the arena it reads is let go with the store): this then resolves
   * once it has ended, the file as the last whole save left it.
   */
  async save(): Promise<void> {
    if (!this.options.write) return;
    while (this.saving) await this.saving;
    if (this.closed) return;
    const version = this.sessions.version;
    if (version === this.savedVersion) return;
    this.saving = (async () => {
      const began = performance.now();
      try {
        const dirs = await this.stillDirs();
        const format = await summaryFormat();
        if (await saveIndex(this.options.file, format, this.dataDir, this.inListOrder(), this.sessions.filters, this.sessions.values, dirs, () => this.closed)) this.savedVersion = version;
      } catch (err) {
        this.warn(`engine-console: the index could not be saved to ${this.options.file}: ${errorText(err)}`);
      } finally {
        this.lastEnd = performance.now();
        this.lastMs = this.lastEnd - began;
        this.saving = null;
      }
    })();
    await this.saving;
  }

  /**
   * The entries newest first, as the list has them, then those that do not read: a restart lists the saved entries
   * in this order, its first part the first page.
   */
  private inListOrder(): SessionEntry[] {
    // Every entry that was ever summarized is in the list or does not read: no pass over every entry.
    return [...this.sessions.readable, ...this.sessions.unreadable()];
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
  }
}
