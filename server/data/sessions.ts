// Sessions as the console serves them: summaries for every log in the catalog, parsed in the worker pool
// and cached by the stamps of the log and its two companions; details parsed fresh for each request.
import { Readable } from 'node:stream';
import type { SessionDetail, SessionSummary } from '../../shared/sessions.ts';
import { publicSummary } from '../engine/sessions.ts';
import type { State } from '../state.ts';
import type { SessionFile } from './catalog.ts';
import { sessionStamps } from './stamps.ts';
import { WorkerDied } from '../workers/pool.ts';

export type SessionSummaryResult = { ok: true; value: SessionSummary } | { ok: false; message: string };

export class UnreadableSession extends Error {}

function stampsOf(f: SessionFile, now: number): string {
  return `${sessionStamps.stamp(f.path, now)}|${sessionStamps.stamp(f.flowLog, now)}|${sessionStamps.stamp(f.confirmLog, now)}`;
}

/** The plain data a worker needs for one session. */
export const filesOf = (f: SessionFile) => ({ key: f.key, rel: f.rel, path: f.path, flowLog: f.flowLog, confirmLog: f.confirmLog });

export interface SessionSummaries {
  /** Readable sessions, newest first, as the API sends them. */
  readable: SessionSummary[];
  /** The same sessions carrying the tools they called (`tools_called`), for the list's `q` filter only. */
  indexed: SessionSummary[];
  /** Logs that are not session logs this engine can read, in scan order. */
  unreadable: { file: SessionFile; error: string }[];
}

const newestFirst = (a: SessionSummary, b: SessionSummary) =>
  b.started_unix_ms - a.started_unix_ms || (a.session_id < b.session_id ? 1 : a.session_id > b.session_id ? -1 : 0);

/** The last answer per cache: reused while every file, key and cached result is the same. */
interface Memo {
  files: readonly SessionFile[];
  results: readonly SessionSummaryResult[];
  answer: SessionSummaries;
}
const memos = new WeakMap<object, Memo>();

function sameAsMemo(memo: Memo | undefined, files: readonly SessionFile[], results: readonly (SessionSummaryResult | undefined)[]): boolean {
  if (!memo || memo.files.length !== files.length) return false;
  for (let i = 0; i < files.length; i++) {
    const a = memo.files[i]!;
    const b = files[i]!;
    if (a.key !== b.key || a.path !== b.path || memo.results[i] !== results[i]) return false;
  }
  return true;
}

/**
 * One batch's summaries. A batch whose worker died (a file too big for its heap) is read again a file at
 * a time, so only that file is unreadable and the list still answers.
 */
async function summariesOf(state: State, files: ReturnType<typeof filesOf>[]): Promise<SessionSummaryResult[]> {
  try {
    return await state.pool.run('sessionSummariesTask', files);
  } catch (err) {
    if (!(err instanceof WorkerDied)) throw err;
  }
  return Promise.all(
    files.map((f) =>
      state.pool.run('sessionSummaryTask', f).catch((err: unknown): SessionSummaryResult => {
        if (err instanceof WorkerDied) return { ok: false, message: err.message };
        throw err;
      }),
    ),
  );
}

export async function sessionSummaries(state: State, files?: readonly SessionFile[]): Promise<SessionSummaries> {
  const all = files ?? (await state.catalog()).sessions;
  const cache = state.sessionCache;
  const results = new Array<SessionSummaryResult | undefined>(all.length);
  const now = Date.now();
  const stamps = all.map((f) => stampsOf(f, now));
  const missing: number[] = [];
  all.forEach((f, i) => {
    const hit = cache.get(f.path, stamps[i]!);
    if (hit) results[i] = hit;
    else missing.push(i);
  });

  if (missing.length) {
    // Split a cold index across every worker thread; small batches keep a big log from holding up the rest.
    const chunks = Math.min(missing.length, Math.max(state.pool.threads * 4, 1));
    const size = Math.ceil(missing.length / chunks);
    const batches: number[][] = [];
    for (let i = 0; i < missing.length; i += size) batches.push(missing.slice(i, i + size));
    await Promise.all(
      batches.map(async (batch) => {
        const out = await summariesOf(state, batch.map((i) => filesOf(all[i]!)));
        batch.forEach((i, j) => {
          const r = out[j] ?? { ok: false as const, message: 'the worker gave no answer' };
          results[i] = r;
          cache.set(all[i]!.path, stamps[i]!, r);
        });
      }),
    );
  }
  // The same catalog as last time (nothing was added or removed): nothing to forget.
  if (!files && memos.get(cache)?.files !== all) {
    const paths = new Set(all.map((f) => f.path));
    cache.retain(paths);
    for (const f of all) {
      if (f.flowLog) paths.add(f.flowLog);
      if (f.confirmLog) paths.add(f.confirmLog);
    }
    sessionStamps.retain(paths);
  }
  const memo = files ? undefined : memos.get(cache);
  if (missing.length === 0 && sameAsMemo(memo, all, results)) return memo!.answer;

  const readable: SessionSummary[] = [];
  const unreadable: SessionSummaries['unreadable'] = [];
  all.forEach((f, i) => {
    const r = results[i]!;
    // Keys can change when a clashing file appears; the cached summary keeps its data, not its key.
    if (r.ok) readable.push(r.value.key === f.key && r.value.path === f.rel ? r.value : { ...r.value, key: f.key, path: f.rel });
    else unreadable.push({ file: f, error: r.message });
  });
  readable.sort(newestFirst);
  // The API's copies (without tools_called) are made only when somebody asks for them.
  let published: SessionSummary[] | null = null;
  const answer: SessionSummaries = {
    get readable() {
      published ??= readable.map(publicSummary);
      return published;
    },
    indexed: readable,
    unreadable,
  };
  if (!files) memos.set(cache, { files: all, results: results as SessionSummaryResult[], answer });
  return answer;
}

/**
 * One session as the JSON bytes the API sends, serialized in the worker: a big log's view is tens of MB, and
 * cloning and stringifying it here would stall every other request. Throws UnreadableSession.
 */
export async function sessionDetailJson(state: State, file: SessionFile): Promise<Readable> {
  const r = await state.pool.run('sessionDetailBytesTask', filesOf(file));
  if (typeof r === 'string') throw new UnreadableSession(r);
  // Chunks of at most 1 MiB keep each socket write short, so other answers interleave with a big one.
  return Readable.from(
    r.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)),
    { objectMode: false },
  );
}

/** One session, parsed fresh in the pool. Throws UnreadableSession when it is not a session log. */
export async function sessionDetail(state: State, file: SessionFile): Promise<SessionDetail> {
  const r = await state.pool.run('sessionDetailTask', filesOf(file));
  if (!r.ok) throw new UnreadableSession(r.message);
  return r.value;
}
