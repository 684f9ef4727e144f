// The session index saved between runs: one file per data directory in the user's cache directory, never in
// the data directory. It holds, per log, the stamps its summary was made from and the summary (or why the
// log does not read) and its search filter; keys, tallies and flow sites are derived again from them. A saved entry is only a
// candidate: the feeder hands its stamp to the pool as the one the index holds, and the summary is used only
// when the files' stamps now are equal (feeder.ts), so a log changed while the console was stopped is read
// again. The file is trusted only as this build wrote it: its magic (the layout's version), this build's summary
// format, its data directory and the SHA-256 of its header must match, else it is ignored (one stderr line)
// and replaced; the header holds each chunk's SHA-256, checked when that chunk is read.
//
// Layout: MAGIC, a slot naming where the header is, its length and its SHA-256, then the body: chunks of
// CHUNK_ENTRIES entries, each the logs' paths (NUL-joined) and their results packed as the pool answers them
// (index-wire.ts), then the header as JSON. A save writes each chunk as it is made and the slot last; at start
// only the paths are read and split, a chunk's results are read when the feeder first asks for one of its logs,
// and each log's entry made only when it is taken, so neither holds the file whole, and reading even a big
// index holds the event loop a few short turns.
import { createHash, type Hash, webcrypto } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import * as v from 'valibot';
import { errorText } from '../../shared/error-text.ts';
import type { IndexedSummary } from '../engine/sessions.ts';
import type { Result } from '../result.ts';
import { type AnswerView, type FilterAt, IndexPacker, type IndexResult, PackedAnswers, type PackedIndex, packedStamps } from './index-wire.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { processAlive } from './process-alive.ts';
import type { FilterArena } from './search-filters.ts';
import type { SessionEntry } from './session-index.ts';
import { emptyFigures, type SharedValueIds, type SharedValues } from './summary-columns.ts';
import { decodeTree, dirRecord, joinedInTurns, type SavedDir, TreeAgreement, type TreeDir } from './saved-tree.ts';
import { countOf, SavedPaths } from './saved-paths.ts';
import { exactStamp, fileStamp } from './stamp.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The layout's version is in MAGIC: a file of another layout is refused whole. */
const MAGIC = Buffer.from('engine-console index 2\n');
/** The first layout's: its header came first, so a save held the whole file to write it. */
const OLD_MAGIC = Buffer.from('engine-console index\n');
const SLOT_BYTES = 8 + 4 + 32;
const BODY_AT = MAGIC.length + SLOT_BYTES;
const CHUNK_ENTRIES = 1_000;
/** Bytes of a directory's record hashed in a turn of the event loop (a few ms). */
const HASHED_PER_TURN = 4 << 20;
/** A header is some 140 bytes a chunk: a slot naming more is corrupt (and is not read into memory). */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;
/** Entries packed per turn of the event loop when the index is saved. */
const SAVED_PER_TURN = 250;
/** Paths and stamps hold no NUL: NUL joins them. */
const SEP = '\u0000';

const HeaderSchema = v.object({
  format: v.string(),
  dataDir: v.string(),
  entries: v.number(),
  /** Per chunk: the bytes of its paths, then of its results, and the SHA-256 (hex) of each. */
  chunks: v.array(v.tuple([v.number(), v.number(), v.string(), v.string()])),
  /** The still directories (saved-tree.ts), after the chunks: their bytes and SHA-256 (hex). */
  tree: v.tuple([v.number(), v.string()]),
});
type Header = v.InferOutput<typeof HeaderSchema>;
type ChunkLine = Header['chunks'][number];
/** A place in the saved index: chunk × PLACE + position in it. */
const PLACE = 65_536;

/** What a saved entry vouches for, once its stamp is found equal to the files' now. */
export interface SavedEntry {
  stamp: string;
  mtimeMs: number;
  result: Result<IndexedSummary>;
  /** The search filter made with the summary, if any. */
  filter: Uint8Array | null;
}

/** Where a data directory's index is saved in `cacheDir`: named by a hash of the directory's real path. */
export function savedIndexPath(cacheDir: string, dataDir: string): string {
  return join(cacheDir, `index-${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}.bin`);
}

/** Where the big logs' outlines are kept beside a saved index (kept-outlines.ts). */
export const keptOutlinesDir = (indexFile: string): string => `${indexFile.replace(/\.bin$/, '')}.outlines`;

/** The cache directory, made 0700 if missing; null (with why) when it is not a directory of this user's alone. */
export function ensureCacheDir(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return `${dir} is not a directory`;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`;
    if ((st.mode & 0o022) !== 0) return `${dir} may be written by other users (chmod 700 it)`;
    return null;
  } catch (err) {
    return `${dir} cannot be made: ${errorText(err)}`;
  }
}

/** The saved form of an entry's summary (or of why its log does not read). */
export function savedResult(e: SessionEntry, filters: FilterArena): IndexResult {
  const result: Result<IndexedSummary> =
    e.summary === null
      ? { ok: false, message: e.error ?? 'the log does not read' }
      : {
          ok: true,
          value: {
            ...e.summary,
            tools_called: [...e.tools],
            shadow_decisions: e.shadowDecisions,
            ...(e.flowSites === null ? {} : { flow_sites: [...e.flowSites] }),
          },
        };
  const r: IndexResult = { stamp: e.stamp ?? '', mtimeMs: e.mtimeMs, unchanged: false, result };
  // One that does not read is saved as none: the next start makes it again.
  const filter = e.filterSlot < 0 ? null : filters.copy(e.filterSlot);
  if (filter !== null) r.filter = filter;
  return r;
}

/**
 * A chunk: its logs' paths (UTF-8, NUL-joined), and their results packed as the pool answers them, packed
 * SAVED_PER_TURN entries a turn of the event loop (a whole chunk in one turn was what a request waited
 * longest for after a restart that read some logs). A readable entry is packed from its row (its figures and
 * the index's shared `values`), with no summary object made; the rest (unreadable, or removed meanwhile) as
 * the pool answers them.
 */
async function chunkOf(entries: readonly SessionEntry[], filters: FilterArena, values: SharedValues, tree: TreeAgreement): Promise<[Buffer, Uint8Array]> {
  const packer = new IndexPacker(entries.length);
  const figures = emptyFigures();
  const filter: FilterAt = { arena: filters, slot: -1 };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const stamp = e.stamp ?? '';
    tree.note(e.rel, stamp);
    if (e.readFigures(figures)) {
      filter.slot = e.filterSlot;
      packer.addFigures(stamp, e.mtimeMs, figures, values, e.base, filter);
    } else packer.add(savedResult(e, filters), e.base);
    if (i % SAVED_PER_TURN === SAVED_PER_TURN - 1) await nextTurn();
  }
  return [Buffer.from(entries.map((e) => e.rel).join(SEP)), serialize(packer.finish())];
}

/**
 * Write the summarized entries to `file`, whole: to a 0600 temp file beside it, renamed over it. Each chunk is
 * written as it is made (a part of it serialized per turn of the event loop), so a save holds one chunk at a
 * time; then the still directories (`dirs`) that agree with the entries written; the header goes last, and the
 * slot that finds it is written once the rest is. Once `abandoned()` (its store closed, the arena let go), the
 * temp file is removed and `file` left as it was: answers whether it was replaced.
 */
export async function saveIndex(
  file: string,
  format: string,
  dataDir: string,
  entries: readonly SessionEntry[],
  filters: FilterArena,
  values: SharedValues,
  dirs: readonly TreeDir[] = [],
  abandoned: () => boolean = () => false,
): Promise<boolean> {
  const agreement = new TreeAgreement(dirs);
  removeDeadTemps(file);
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  let replaced = false;
  // A chunk is written and summed off the event loop while the next is packed: two chunks are held at most.
  let writing: Promise<void> = Promise.resolve();
  try {
    await writeAt(handle, Buffer.concat([MAGIC, Buffer.alloc(SLOT_BYTES)]), 0);
    const chunks: ChunkLine[] = [];
    let at = BODY_AT;
    let saved = 0;
    // The summarized entries are picked a chunk at a time: a pass over a million at once was a turn of ~100 ms.
    for (let i = 0; i < entries.length; i += CHUNK_ENTRIES) {
      if (abandoned()) return false;
      const summarized = entries.slice(i, i + CHUNK_ENTRIES).filter((e) => e.stamp !== null);
      if (summarized.length === 0) continue;
      saved += summarized.length;
      const [rels, results] = await chunkOf(summarized, filters, values, agreement);
      await writing;
      const line: ChunkLine = [rels.length, results.length, '', ''];
      chunks.push(line);
      writing = writeChunk(handle, at, rels, results, line);
      // Its failure is met where it is awaited, not as an unhandled rejection while the next chunk is packed.
      writing.catch(() => undefined);
      at += rels.length + results.length;
    }
    await writing;
    // A directory a turn (a big one's names joined over several): at once, a million logs' names held the event loop for long.
    const treeSum = createHash('sha256');
    let treeBytes = 0;
    for (const { dir, logs } of await agreement.agreeing()) {
      for (const part of dirRecord(dir, logs, await joinedInTurns(dir.names))) {
        await hashInTurns(treeSum, part);
        await writeAt(handle, part, at);
        at += part.length;
        treeBytes += part.length;
      }
      await nextTurn();
    }
    const header = Buffer.from(JSON.stringify({ format, dataDir, entries: saved, chunks, tree: [treeBytes, treeSum.digest('hex')] } satisfies Header));
    await writeAt(handle, header, at);
    await writeAt(handle, slotOf(at, header), MAGIC.length);
    await handle.sync();
    await handle.close();
    // Abandoned while a chunk was packed: filters copied since may not have read.
    if (abandoned()) return false;
    await rename(temp, file);
    replaced = true;
    return true;
  } finally {
    if (!replaced) {
      await writing.catch(() => undefined);
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
    }
  }
}

/** A chunk's paths and results written at `at`, and their SHA-256 put in its header line, both off the event loop. */
async function writeChunk(handle: FileHandle, at: number, rels: Uint8Array, results: Uint8Array, line: ChunkLine): Promise<void> {
  const [relsSum, resultsSum] = await Promise.all([sha256Apart(rels), sha256Apart(results), writeAt(handle, rels, at), writeAt(handle, results, at + rels.length)]);
  line[2] = relsSum;
  line[3] = resultsSum;
}

/** The SHA-256 in hex, made in libuv's thread pool (Web Crypto's digest), not on the event loop: a million sessions' chunks are 600 MB. */
async function sha256Apart(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/** `bytes` added to `hash` a piece per turn of the event loop: a big directory's record is some 20 MB. */
export async function hashInTurns(hash: Hash, bytes: Uint8Array, piece = HASHED_PER_TURN): Promise<void> {
  for (let from = 0; from < bytes.length; from += piece) {
    if (from > 0) await nextTurn();
    hash.update(bytes.subarray(from, from + piece));
  }
}

async function writeAt(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The slot after MAGIC: where the header begins (8 bytes), its length (4), its SHA-256 (32). */
function slotOf(headerAt: number, header: Buffer): Buffer {
  const slot = Buffer.alloc(SLOT_BYTES);
  slot.writeBigUInt64BE(BigInt(headerAt), 0);
  slot.writeUInt32BE(header.length, 8);
  createHash('sha256').update(header).digest().copy(slot, 12);
  return slot;
}

/** Temp files of saves cut off by a kill (their process is gone): never renamed, they would stay forever. */
function removeDeadTemps(file: string): void {
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dirname(file))) {
    const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.slice(prefix.length, -'.tmp'.length)) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || processAlive(pid)) continue;
    rmSync(join(dirname(file), name), { force: true });
  }
}

/** Where a loaded index's entries are in its file, for the pool to check them (checkSaved). */
export interface SavedSource {
  file: string;
  /** The file's stamp when it was read: a file replaced since is not checked. */
  stamp: string;
  /** Per chunk: where its paths begin, their bytes, then its results' bytes. */
  chunks: [number, number, number][];
  /** Per chunk: the SHA-256 (hex) of its results. */
  sums: string[];
  /** Where the still directories are (saved-tree.ts), their bytes and SHA-256 (hex). */
  tree: [number, number, string];
}

/** Why a saved index is not used. */
export class SavedIndexRefused extends Error {}

/**
 * A saved index, checked whole: each log's place by its path, and its chunk decoded when one of its logs is
 * first asked for (at start only the paths are split, so even a big index is read in a few turns); a log's
 * entry is made when it is taken, so it dies young.
 */
export class SavedEntries {
  /** Decoded chunks, and how many of each chunk's entries are not taken yet (a chunk goes once all are). */
  private readonly decoded = new Map<number, PackedAnswers | null>();
  private readonly left: number[];
  /** Per chunk, per entry: what the pool found of its files (checkSaved: CHECKED_*). */
  private checked: readonly Uint8Array[] | null = null;
  /** Per chunk, per entry: 1 once taken (marked, not deleted from `places`: 100k deletes cost more). */
  private readonly taken: Uint8Array[];
  private takenCount = 0;
  /** The place after the last one found: a restart lists the logs in the order they were saved, mostly. */
  private cursor = 0;
  /** A corrupt chunk was told of: one line for the file, not one per chunk. */
  private corruptSaid = false;

  /**
   * Each log's place by its path, for a log asked for out of the saved order (most are taken in that order, by
   * the cursor, or by their places, forUnchanged): mapped a chunk per turn of the event loop once asked for
   * (`mapPlaces`: a restart whose directories are all kept takes every entry by its place, and never needs it).
   * A lookup before the map is whole may miss: that log is then read, as one the saved index does not hold.
   */
  private readonly places = new Map<string, number>();
  /** Chunks whose paths are in `places`. */
  private mapped = 0;
  private mapping = false;
  private readonly count: number;

  constructor(
    /** Per chunk, its logs' paths: the next log asked for is most often the one after the last. */
    private readonly rels: SavedPaths,
    readonly source: SavedSource,
    /** Told once when a chunk's results are found corrupt (its logs are read again). */
    private readonly onCorrupt: () => void = () => {},
  ) {
    this.left = [...rels.counts];
    this.taken = rels.counts.map((n) => new Uint8Array(n));
    this.count = this.left.reduce((sum, n) => sum + n, 0);
  }

  /**
   * Map each log's place by its path, a chunk per turn from now on (once); `chunks`: only the first few, at once
   * (the newest logs, which a head lists: the file is saved in the list's order), until the whole map is asked for.
   */
  mapPlaces(chunks?: number): void {
    if (chunks !== undefined) {
      while (!this.mapping && this.mapped < Math.min(chunks, this.rels.length)) this.mapChunk(this.mapped++);
      return;
    }
    if (this.mapping) return;
    this.mapping = true;
    void this.mapInTurns();
  }

  private async mapInTurns(): Promise<void> {
    while (this.mapped < this.rels.length) {
      this.mapChunk(this.mapped++);
      await nextTurn();
    }
  }

  private mapChunk(c: number): void {
    this.rels.at(c)!.forEach((rel, i) => this.places.set(rel, c * PLACE + i));
  }

  /** Entries the file holds. */
  get total(): number {
    return this.count;
  }

  /** Entries not taken yet. */
  get size(): number {
    return this.count - this.takenCount;
  }

  /** The place of this log's entry, unless there is none or it was taken. */
  private placeOf(rel: string): number | undefined {
    const place = this.nextIs(rel) ?? this.places.get(rel);
    if (place !== undefined) this.cursor = place + 1;
    return place === undefined || this.taken[Math.floor(place / PLACE)]![place % PLACE] === 1 ? undefined : place;
  }

  /** The place at the cursor (or the next chunk's first) if it holds `rel`: a string compare instead of a map lookup. */
  private nextIs(rel: string): number | undefined {
    const chunk = Math.floor(this.cursor / PLACE);
    const i = this.cursor % PLACE;
    const names = this.rels.at(chunk);
    if (names !== undefined && i < names.length) return names[i] === rel ? this.cursor : undefined;
    return this.rels.at(chunk + 1)?.[0] === rel ? (chunk + 1) * PLACE : undefined;
  }

  /** Mark the entry at `place` taken. */
  private take(place: number): void {
    this.taken[Math.floor(place / PLACE)]![place % PLACE] = 1;
    this.takenCount++;
  }

  /** What the earlier run saw of this log (`base`: its key base); undefined when it has nothing (or its chunk does not decode). */
  get(rel: string, base: string): SavedEntry | undefined {
    const place = this.placeOf(rel);
    return place === undefined ? undefined : (this.answers(Math.floor(place / PLACE), false)?.saved(place % PLACE, base) ?? undefined);
  }

  /** What the pool found of the entries' files (checkSaved). */
  markChecked(checked: readonly Uint8Array[]): void {
    this.checked = checked;
  }

  /**
   * The place of this log's saved entry if the pool found its files as they were and the walk found the same
   * companions beside it (-1 otherwise); claimed at once: `entryAt` makes it.
   */
  claim(log: { rel: string; hasFlowLog: boolean; hasConfirmLog: boolean }): number {
    const place = this.placeOf(log.rel);
    if (place === undefined) return -1;
    const found = this.checked?.[Math.floor(place / PLACE)]?.[place % PLACE] ?? 0;
    const same = CHECKED_SAME | (log.hasFlowLog ? CHECKED_FLOW_LOG : 0) | (log.hasConfirmLog ? CHECKED_CONFIRM_LOG : 0);
    if (found !== same) return -1;
    this.take(place);
    return place;
  }

  /** The claimed entry at `place` (undefined if its chunk does not decode); its chunk goes once all its entries are made. */
  entryAt(place: number, base: string): SavedEntry | undefined {
    const chunk = Math.floor(place / PLACE);
    // Claimed: the check found it unchanged, so it read its chunk's results and found their SHA-256 right.
    const entry = this.answers(chunk, true)?.saved(place % PLACE, base) ?? undefined;
    this.done(chunk);
    return entry;
  }

  /**
   * `entryAt`, with a summary read into `view` (true) rather than made: its shared values as ids of `ids`' tables.
   * An entry without one is made (entryAt's answer); undefined if its chunk does not decode.
   */
  readAt(place: number, ids: SharedValueIds, view: AnswerView, base: string): true | SavedEntry | undefined {
    const chunk = Math.floor(place / PLACE);
    const answers = this.answers(chunk, true);
    const i = place % PLACE;
    const out = answers === null ? undefined : answers.readInto(i, ids, view, base) ? true : (answers.saved(i, base) ?? undefined);
    this.done(chunk);
    return out;
  }

  /**
   * The entries of chunk `c` (from `from` to `to`) the pool found as saved (`found`, checkSaved's answer for the
   * chunk) and not taken yet: each log's path, its place, and what the check found (which companions its stamp
   * names).
   */
  forUnchanged(c: number, found: Uint8Array, each: (rel: string, place: number, found: number) => void, from = 0, to = found.length): void {
    const rels = this.rels.at(c);
    const taken = this.taken[c];
    if (rels === undefined || taken === undefined) return;
    const n = Math.min(to, found.length, rels.length, taken.length);
    for (let i = from; i < n; i++) if ((found[i]! & CHECKED_SAME) !== 0 && taken[i] === 0) each(rels[i]!, c * PLACE + i, found[i]!);
  }

  /** Look for this log's place by going through the paths (no map needed): the next lookup of it finds it at once. */
  seek(rel: string): void {
    for (let c = 0; c < this.rels.length; c++) {
      const i = this.rels.at(c)!.indexOf(rel);
      if (i !== -1) {
        this.cursor = c * PLACE + i;
        return;
      }
    }
  }

  /** Each entry not taken yet, by its log's path. */
  forUntaken(each: (rel: string) => void): void {
    for (let c = 0; c < this.rels.length; c++) {
      const taken = this.taken[c]!;
      // A chunk whose entries are all taken is not split into paths again.
      if (taken.indexOf(0) === -1) continue;
      const rels = this.rels.at(c)!;
      for (let i = 0; i < rels.length; i++) if (taken[i] === 0) each(rels[i]!);
    }
  }

  /** The paths of chunk `c`'s entries (from `from` to `to`) the check found changed (`found`) and not taken yet. */
  forChanged(c: number, found: Uint8Array, each: (rel: string) => void, from = 0, to = found.length): void {
    const rels = this.rels.at(c);
    const taken = this.taken[c];
    if (rels === undefined || taken === undefined) return;
    const n = Math.min(to, found.length, rels.length, taken.length);
    for (let i = from; i < n; i++) if ((found[i]! & CHECKED_SAME) === 0 && taken[i] === 0) each(rels[i]!);
  }

  /** Claim the entry at `place`, which the check found unchanged (false if it was taken): `entryAt` makes it. */
  claimAt(place: number): boolean {
    if (this.taken[Math.floor(place / PLACE)]?.[place % PLACE] !== 0) return false;
    this.take(place);
    return true;
  }

  /** `claim` then `entryAt`. */
  takeChecked(log: { rel: string; base: string; hasFlowLog: boolean; hasConfirmLog: boolean }): SavedEntry | undefined {
    const place = this.claim(log);
    return place === -1 ? undefined : this.entryAt(place, log.base);
  }

  /** Taken: its summary is in the index now. */
  delete(rel: string): void {
    const place = this.placeOf(rel);
    if (place === undefined) return;
    this.take(place);
    this.done(Math.floor(place / PLACE));
  }

  /**
   * A chunk's answers, its results read from the file the first time (null when they cannot be trusted); their
   * SHA-256 is checked unless the pool's check did it (`checked`) in the same file.
   */
  private answers(chunk: number, checked: boolean): PackedAnswers | null {
    let answers = this.decoded.get(chunk);
    if (answers === undefined) {
      const bytes = readResults(this.source, chunk);
      const trusted = bytes !== null && (checked || sha256(bytes) === this.source.sums[chunk]);
      if (bytes !== null && !trusted && !this.corruptSaid) {
        this.corruptSaid = true;
        this.onCorrupt();
      }
      answers = trusted ? decodeAnswers(bytes) : null;
      this.decoded.set(chunk, answers);
    }
    return answers;
  }

  private done(chunk: number): void {
    if (--this.left[chunk]! === 0) this.decoded.delete(chunk);
  }
}

function decodeAnswers(bytes: Uint8Array): PackedAnswers | null {
  try {
    return new PackedAnswers(deserialize(bytes) as PackedIndex);
  } catch {
    return null;
  }
}

/**
 * A chunk's results, read from the file when the chunk is first asked for; null when the file is gone or is not
 * the one loaded (replaced since: its stamp differs), so its entries are read again from the logs.
 */
function readResults(source: SavedSource, chunk: number): Buffer | null {
  const [at, relsLength, resultsLength] = source.chunks[chunk]!;
  let fd: number;
  try {
    fd = openSync(source.file, 'r');
  } catch {
    return null;
  }
  try {
    if (exactStamp(fstatSync(fd, { bigint: true })) !== source.stamp) return null;
    const bytes = Buffer.allocUnsafe(resultsLength);
    return readFully(fd, bytes, at + relsLength) ? bytes : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * In the pool, for the first walk: the still directories a saved index holds, by path; none when the file is not
 * the one loaded (replaced since) or they are not as saved (their SHA-256), so every directory is listed.
 */
export function readSavedTree(source: SavedSource): Map<string, SavedDir> {
  const [at, length, sum] = source.tree;
  let fd: number;
  try {
    fd = openSync(source.file, 'r');
  } catch {
    return new Map();
  }
  try {
    if (exactStamp(fstatSync(fd, { bigint: true })) !== source.stamp) return new Map();
    const bytes = Buffer.allocUnsafe(length);
    if (!readFully(fd, bytes, at) || sha256(bytes) !== sum) return new Map();
    return decodeTree(bytes) ?? new Map();
  } catch {
    return new Map();
  } finally {
    closeSync(fd);
  }
}

/** Fill `bytes` from `position`; false at the end of the file. */
function readFully(fd: number, bytes: Buffer, position: number): boolean {
  for (let got = 0; got < bytes.length; ) {
    const n = readSync(fd, bytes, got, bytes.length - got, position + got);
    if (n === 0) return false;
    got += n;
  }
  return true;
}

/**
 * The saved index, or null when there is no file. Throws SavedIndexRefused when it is truncated, corrupt,
 * foreign, of another layout, data directory or summary format. Its header is checked by its SHA-256, and
 * each chunk's paths as they are read (a chunk's results only when they are: SavedEntries). `onSource` is told
 * where its entries are as soon as its header is read: the pool can start checking them meanwhile (what it
 * finds is used only if the file is then loaded). `onCorrupt`: SavedEntries'.
 */
export async function loadIndex(
  file: string,
  format: string,
  dataDir: string,
  onSource?: (source: SavedSource) => void,
  onCorrupt?: () => void,
): Promise<SavedEntries | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SavedIndexRefused(`it cannot be read: ${errorText(err)}`);
  }
  try {
    const stat = await handle.stat({ bigint: true });
    const header = await readHeader(handle, Number(stat.size), format, dataDir);
    const chunks: [number, number, number][] = [];
    let at = BODY_AT;
    for (const [relsLength, resultsLength] of header.chunks) {
      chunks.push([at, relsLength, resultsLength]);
      at += relsLength + resultsLength;
    }
    const source: SavedSource = { file, stamp: exactStamp(stat), chunks, sums: header.chunks.map((c) => c[3]), tree: [at, header.tree[0], header.tree[1]] };
    onSource?.(source);
    const paths = await readPaths(handle, header, chunks);
    if (paths.counts.reduce((sum, n) => sum + n, 0) !== header.entries) throw new SavedIndexRefused('its entries do not add up');
    return new SavedEntries(paths, source, onCorrupt);
  } catch (err) {
    if (err instanceof SavedIndexRefused) throw err;
    throw new SavedIndexRefused(`it cannot be read: ${errorText(err)}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The header, found by the slot after MAGIC, checked against this build, this data directory and its SHA-256. */
async function readHeader(handle: FileHandle, size: number, format: string, dataDir: string): Promise<Header> {
  const front = await readAt(handle, BODY_AT, 0);
  if (front.subarray(0, OLD_MAGIC.length).equals(OLD_MAGIC)) throw new SavedIndexRefused('it was written by an older version of the console');
  if (front.length < BODY_AT || !front.subarray(0, MAGIC.length).equals(MAGIC)) throw new SavedIndexRefused('it is not an index this console wrote');
  const headerAt = Number(front.readBigUInt64BE(MAGIC.length));
  const headerLength = front.readUInt32BE(MAGIC.length + 8);
  if (headerAt < BODY_AT || headerLength > MAX_HEADER_BYTES) throw new SavedIndexRefused('its header is corrupt');
  if (headerAt + headerLength > size) throw new SavedIndexRefused('it is truncated');
  if (headerAt + headerLength !== size) throw new SavedIndexRefused('it is corrupt (it is longer than its header says)');
  const bytes = await readAt(handle, headerLength, headerAt);
  const header = parseHeader(bytes);
  if (header.format !== format) throw new SavedIndexRefused('it was written by another version of the summaries');
  if (header.dataDir !== dataDir) throw new SavedIndexRefused(`it is the index of ${header.dataDir}`);
  if (!createHash('sha256').update(bytes).digest().equals(front.subarray(MAGIC.length + 12))) throw new SavedIndexRefused('it is corrupt (its checksum differs)');
  if (header.chunks.reduce((sum, [a, b]) => sum + a + b, BODY_AT) + header.tree[0] !== headerAt) throw new SavedIndexRefused('it is corrupt (its chunks do not add up)');
  return header;
}

/** `length` bytes from `position` (fewer at the end of the file). */
async function readAt(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(bytes, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return bytes.subarray(0, got);
}

/** Each chunk's paths, read alone and checked by their SHA-256: each log's place, and the paths per chunk. */
async function readPaths(handle: FileHandle, header: Header, chunks: readonly [number, number, number][]): Promise<SavedPaths> {
  const bytes: Buffer[] = [];
  const counts: number[] = [];
  for (const [c, [from, relsLength]] of chunks.entries()) {
    const rels = await readAt(handle, relsLength, from);
    if (rels.length !== relsLength) throw new SavedIndexRefused('it is truncated');
    if (sha256(rels) !== header.chunks[c]![2]) throw new SavedIndexRefused('it is corrupt (its checksum differs)');
    const count = countOf(rels);
    if (count >= PLACE) throw new SavedIndexRefused('it is corrupt');
    bytes.push(rels);
    counts.push(count);
  }
  return new SavedPaths(bytes, counts);
}

function parseHeader(bytes: Buffer): Header {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SavedIndexRefused('its header is corrupt');
  }
  const header = v.safeParse(HeaderSchema, json);
  if (!header.success) throw new SavedIndexRefused('its header is corrupt');
  return header.output;
}

/** checkSaved's answer per entry: the log and the companions its stamp names are as saved. */
export const CHECKED_SAME = 1;
/** The saved stamp names a flow log (else the walk must have found none beside the log). */
export const CHECKED_FLOW_LOG = 2;
/** The saved stamp names a confirm log (else the walk must have found none). */
export const CHECKED_CONFIRM_LOG = 4;

/**
 * In the pool, beside the first walk: for the chunks [first, end), per entry, CHECKED_SAME where the log's
 * stamp now is the saved one and so is each companion's that the saved stamp names, with which companions
 * those are. A companion saved as missing is not looked at here: the walk lists the log's directory, and the
 * entry is taken only if the walk found none either (takeChecked), as the index task stamps only the
 * companions the walk found. 0 where anything differs, and for each entry of a chunk whose results' SHA-256
 * is not the saved one (so CHECKED_SAME vouches for its chunk too: entryAt does not hash it again). Null when
 * the file was replaced since it was read.
 */
export function checkSaved(root: string, source: SavedSource, first: number, end: number): Uint8Array[] | null {
  const chunks = source.chunks.slice(first, end);
  if (chunks.length === 0) return [];
  const fd = openSync(source.file, 'r');
  try {
    if (exactStamp(fstatSync(fd, { bigint: true })) !== source.stamp) return null;
    // One chunk at a time, into one buffer: a part of a big index is tens of megabytes.
    let bytes = Buffer.allocUnsafe(0);
    const out: Uint8Array[] = [];
    for (const [c, [at, relsLength, resultsLength]] of chunks.entries()) {
      if (bytes.length < relsLength + resultsLength) bytes = Buffer.allocUnsafe(relsLength + resultsLength);
      const chunk = bytes.subarray(0, relsLength + resultsLength);
      if (!readFully(fd, chunk, at)) return null;
      const rels = chunk.toString('utf8', 0, relsLength).split(SEP);
      // Results that are not as saved vouch for nothing (their logs are read again).
      if (sha256(chunk.subarray(relsLength)) !== source.sums[first + c]) {
        out.push(new Uint8Array(rels.length));
        continue;
      }
      const stamps = packedStamps(chunk.subarray(relsLength));
      const found = new Uint8Array(rels.length);
      rels.forEach((rel, i) => (found[i] = checkOne(`${root}/${rel}`, stamps[i])));
      out.push(found);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

function checkOne(path: string, saved: string | undefined): number {
  if (saved === undefined) return 0;
  const parts = saved.split('|');
  if (parts.length !== 3 || fileStamp(path).stamp !== parts[0]) return 0;
  const stem = path.slice(0, -JSONL.length);
  const [, flow, confirm] = parts as [string, string, string];
  if (flow !== '-' && fileStamp(stem + FLOW_LOG).stamp !== flow) return 0;
  if (confirm !== '-' && fileStamp(stem + CONFIRM_LOG).stamp !== confirm) return 0;
  return CHECKED_SAME | (flow === '-' ? 0 : CHECKED_FLOW_LOG) | (confirm === '-' ? 0 : CHECKED_CONFIRM_LOG);
}
