// The session index saved between runs: one file per data directory in the user's cache directory, never in
// the data directory. It holds, per log, the stamps its summary was made from and the summary (or why the
// log does not read) and its search filter; keys, tallies and flow sites are derived again from them. A saved entry is only a
// candidate: the feeder hands its stamp to the pool as the one the index holds, and the summary is used only
// when the files' stamps now are equal (feeder.ts), so a log changed while the console was stopped is read
// again. The file is trusted only whole: its magic, this build's summary format, its data directory and the
// SHA-256 of its body must all match, else it is ignored (one stderr line) and replaced.
//
// Layout: MAGIC, a 4-byte big-endian header length, the header as JSON, then the body: chunks of
// CHUNK_ENTRIES entries, each the logs' paths (NUL-joined) and their results packed as the pool answers them
// (index-wire.ts). At start only the paths are split; a chunk's results are decoded when the feeder first
// asks for one of its logs, and each log's entry made only when it is taken, so reading even a big index
// holds the event loop a few short turns.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import * as v from 'valibot';
import { errorText } from '../../shared/error-text.ts';
import type { IndexedSummary } from '../engine/sessions.ts';
import type { Result } from '../result.ts';
import { IndexPacker, type IndexResult, PackedAnswers, type PackedIndex, packedStamps } from './index-wire.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from './log-names.ts';
import { processAlive } from './process-alive.ts';
import type { FilterArena } from './search-filters.ts';
import type { SessionEntry } from './session-index.ts';
import { exactStamp, fileStamp } from './stamp.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

const MAGIC = Buffer.from('engine-console index\n');
const CHUNK_ENTRIES = 1_000;
/** Entries packed per turn of the event loop when the index is saved. */
const SAVED_PER_TURN = 250;
/** Paths and stamps hold no NUL: NUL joins them. */
const SEP = '\u0000';

const HeaderSchema = v.object({
  format: v.string(),
  dataDir: v.string(),
  entries: v.number(),
  /** Per chunk: the bytes of its paths, then of its results. */
  chunks: v.array(v.tuple([v.number(), v.number()])),
  sha256: v.string(),
});
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
function savedResult(e: SessionEntry, filters: FilterArena): IndexResult {
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
  if (e.filterSlot >= 0) r.filter = filters.copy(e.filterSlot);
  return r;
}

/**
 * A chunk: its logs' paths (UTF-8, NUL-joined), and their results packed as the pool answers them, packed
 * SAVED_PER_TURN entries a turn of the event loop (a whole chunk in one turn was what a request waited
 * longest for after a restart that read some logs).
 */
async function chunkOf(entries: readonly SessionEntry[], filters: FilterArena): Promise<[Buffer, Uint8Array]> {
  const packer = new IndexPacker(entries.length);
  for (let i = 0; i < entries.length; i++) {
    packer.add(savedResult(entries[i]!, filters));
    if (i % SAVED_PER_TURN === SAVED_PER_TURN - 1) await nextTurn();
  }
  return [Buffer.from(entries.map((e) => e.rel).join(SEP)), serialize(packer.finish())];
}

/**
 * Write the summarized entries to `file`, whole: to a 0600 temp file beside it, renamed over it. Serialized a
 * part of a chunk per turn of the event loop.
 */
export async function saveIndex(file: string, format: string, dataDir: string, entries: Iterable<SessionEntry>, filters: FilterArena): Promise<void> {
  const summarized = [...entries].filter((e) => e.stamp !== null);
  const chunks: [Buffer, Uint8Array][] = [];
  const hash = createHash('sha256');
  for (let i = 0; i < summarized.length; i += CHUNK_ENTRIES) {
    const chunk = await chunkOf(summarized.slice(i, i + CHUNK_ENTRIES), filters);
    hash.update(chunk[0]);
    hash.update(chunk[1]);
    chunks.push(chunk);
    await nextTurn();
  }
  const header = Buffer.from(
    JSON.stringify({ format, dataDir, entries: summarized.length, chunks: chunks.map(([rels, results]) => [rels.length, results.length]), sha256: hash.digest('hex') } satisfies v.InferOutput<typeof HeaderSchema>),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  removeDeadTemps(file);
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writev([MAGIC, length, header, ...chunks.flat()]);
    await handle.sync();
    await handle.close();
    await rename(temp, file);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
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

  constructor(
    private readonly parts: readonly Uint8Array[],
    private readonly places: Map<string, number>,
    /** Per chunk, its logs' paths: the next log asked for is most often the one after the last. */
    private readonly rels: readonly (readonly string[])[],
    readonly source: SavedSource,
  ) {
    this.left = parts.map(() => 0);
    const ends = parts.map(() => 0);
    for (const place of places.values()) {
      const chunk = Math.floor(place / PLACE);
      this.left[chunk]!++;
      ends[chunk] = Math.max(ends[chunk]!, (place % PLACE) + 1);
    }
    this.taken = ends.map((n) => new Uint8Array(n));
  }

  /** Entries not taken yet. */
  get size(): number {
    return this.places.size - this.takenCount;
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
    const names = this.rels[chunk];
    if (names !== undefined && i < names.length) return names[i] === rel ? this.cursor : undefined;
    return this.rels[chunk + 1]?.[0] === rel ? (chunk + 1) * PLACE : undefined;
  }

  /** Mark the entry at `place` taken. */
  private take(place: number): void {
    this.taken[Math.floor(place / PLACE)]![place % PLACE] = 1;
    this.takenCount++;
  }

  /** What the earlier run saw of this log; undefined when it has nothing (or its chunk does not decode). */
  get(rel: string): SavedEntry | undefined {
    const place = this.placeOf(rel);
    return place === undefined ? undefined : (this.answers(Math.floor(place / PLACE))?.saved(place % PLACE) ?? undefined);
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
  entryAt(place: number): SavedEntry | undefined {
    const chunk = Math.floor(place / PLACE);
    const entry = this.answers(chunk)?.saved(place % PLACE) ?? undefined;
    this.done(chunk);
    return entry;
  }

  /** `claim` then `entryAt`. */
  takeChecked(log: { rel: string; hasFlowLog: boolean; hasConfirmLog: boolean }): SavedEntry | undefined {
    const place = this.claim(log);
    return place === -1 ? undefined : this.entryAt(place);
  }

  /** Taken: its summary is in the index now. */
  delete(rel: string): void {
    const place = this.placeOf(rel);
    if (place === undefined) return;
    this.take(place);
    this.done(Math.floor(place / PLACE));
  }

  private answers(chunk: number): PackedAnswers | null {
    let answers = this.decoded.get(chunk);
    if (answers === undefined) {
      answers = decodeAnswers(this.parts[chunk]);
      this.decoded.set(chunk, answers);
    }
    return answers;
  }

  private done(chunk: number): void {
    if (--this.left[chunk]! === 0) this.decoded.delete(chunk);
  }
}

function decodeAnswers(bytes: Uint8Array | undefined): PackedAnswers | null {
  try {
    return bytes === undefined ? null : new PackedAnswers(deserialize(bytes) as PackedIndex);
  } catch {
    return null;
  }
}

/**
 * The saved index, or null when there is no file. Throws SavedIndexRefused when it is truncated, corrupt,
 * foreign, of another data directory or another summary format. `onSource` is told where its entries are as
 * soon as its header is read, before its body is checked whole: the pool can start checking them meanwhile
 * (what it finds is used only if the file is then loaded).
 */
export async function loadIndex(file: string, format: string, dataDir: string, onSource?: (source: SavedSource) => void): Promise<SavedEntries | null> {
  let bytes: Buffer;
  let stamp: string;
  try {
    const handle = await open(file, 'r');
    try {
      stamp = exactStamp(await handle.stat({ bigint: true }));
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SavedIndexRefused(`it cannot be read: ${errorText(err)}`);
  }
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new SavedIndexRefused('it is not an index this console wrote');
  const headerEnd = MAGIC.length + 4 + bytes.readUInt32BE(MAGIC.length);
  const header = parseHeader(bytes.subarray(MAGIC.length + 4, headerEnd));
  if (header.format !== format) throw new SavedIndexRefused('it was written by another version of the summaries');
  if (header.dataDir !== dataDir) throw new SavedIndexRefused(`it is the index of ${header.dataDir}`);
  const bodyLength = header.chunks.reduce((sum, [a, b]) => sum + a + b, 0);
  if (bytes.length !== headerEnd + bodyLength) throw new SavedIndexRefused('it is truncated');
  const hash = createHash('sha256');
  const places = new Map<string, number>();
  const paths: string[][] = [];
  const parts: Uint8Array[] = [];
  const chunks: [number, number, number][] = [];
  let at = headerEnd;
  for (const [relsLength, resultsLength] of header.chunks) {
    chunks.push([at, relsLength, resultsLength]);
    at += relsLength + resultsLength;
  }
  const source = { file, stamp, chunks };
  onSource?.(source);
  for (const [c, [from, relsLength, resultsLength]] of chunks.entries()) {
    const rels = bytes.subarray(from, from + relsLength);
    const results = bytes.subarray(from + relsLength, from + relsLength + resultsLength);
    hash.update(rels);
    hash.update(results);
    parts.push(results);
    const names = rels.toString('utf8').split(SEP);
    if (names.length >= PLACE) throw new SavedIndexRefused('it is corrupt');
    names.forEach((rel, i) => places.set(rel, c * PLACE + i));
    paths.push(names);
    if (c % 4 === 3) await nextTurn();
  }
  if (hash.digest('hex') !== header.sha256) throw new SavedIndexRefused('it is corrupt (its checksum differs)');
  if (places.size !== header.entries) throw new SavedIndexRefused('its entries do not add up');
  return new SavedEntries(parts, places, paths, source);
}

function parseHeader(bytes: Buffer): v.InferOutput<typeof HeaderSchema> {
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
 * companions the walk found. 0 where anything differs. Null when the file was replaced since it was read.
 */
export function checkSaved(root: string, source: SavedSource, first: number, end: number): Uint8Array[] | null {
  const chunks = source.chunks.slice(first, end);
  if (chunks.length === 0) return [];
  const fd = openSync(source.file, 'r');
  try {
    if (exactStamp(fstatSync(fd, { bigint: true })) !== source.stamp) return null;
    const from = chunks[0]![0];
    const [lastAt, lastRels, lastResults] = chunks.at(-1)!;
    const bytes = Buffer.allocUnsafe(lastAt + lastRels + lastResults - from);
    for (let got = 0; got < bytes.length; ) {
      const n = readSync(fd, bytes, got, bytes.length - got, from + got);
      if (n === 0) return null;
      got += n;
    }
    return chunks.map(([at, relsLength, resultsLength]) => {
      const start = at - from;
      const rels = bytes.toString('utf8', start, start + relsLength).split(SEP);
      const stamps = packedStamps(bytes.subarray(start + relsLength, start + relsLength + resultsLength));
      const out = new Uint8Array(rels.length);
      rels.forEach((rel, i) => (out[i] = checkOne(`${root}/${rel}`, stamps[i])));
      return out;
    });
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
