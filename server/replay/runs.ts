// The console's replay runs, kept in memory for its life (the newest REPLAY_RUNS_KEPT): one running at a time
// per server, each with its cancel, its cap and its progress told to the event stream. The answers all runs
// keep are bounded together: past the budget, the oldest runs' answers are let go first.
import { randomBytes } from 'node:crypto';
import {
  REPLAY_ANSWERS_KEPT_MAX_BYTES,
  REPLAY_RUN_TIMEOUT_MS,
  REPLAY_RUNS_KEPT,
  type ReplayCall,
  type ReplayRun,
  type ReplaySummary,
} from '../../shared/replay.ts';
import { executeRun, type RunInput } from './execute.ts';
import type { ReadRecordings } from './read.ts';
import { countsOf, verdictOf, volatilePaths } from './verdict.ts';

/** How often a moving run is told to the event stream at most. */
const PUBLISH_MS = 200;

export const summaryOf = (run: ReplayRun): ReplaySummary => {
  const { calls: _calls, ...summary } = run;
  return summary;
};

const ended = (run: ReplayRun) => run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled';

const withoutAnswers = (call: ReplayCall): ReplayCall => ({ ...call, recorded: null, live: null });

const capText = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

export interface RunsOptions {
  publish: (summary: ReplaySummary) => void;
  now: () => number;
  read: ReadRecordings;
  /** A run's cap (REPLAY_RUN_TIMEOUT_MS unless a test sets another). */
  capMs?: number;
  /** The answers kept over all runs (REPLAY_ANSWERS_KEPT_MAX_BYTES unless a test sets another). */
  answersMaxBytes?: number;
}

interface Entry {
  run: ReplayRun;
  abort: AbortController;
  stop: string | null;
  done: Promise<void>;
  /** What its kept answers cost, about. */
  bytes: number;
}

export class ReplayRuns {
  private readonly entries: Entry[] = [];
  private keptBytes = 0;
  private readonly capMs: number;
  private readonly answersMaxBytes: number;

  constructor(private readonly options: RunsOptions) {
    this.capMs = options.capMs ?? REPLAY_RUN_TIMEOUT_MS;
    this.answersMaxBytes = options.answersMaxBytes ?? REPLAY_ANSWERS_KEPT_MAX_BYTES;
  }

  list(): ReplaySummary[] {
    return this.entries.map((e) => summaryOf(e.run));
  }

  get(id: string): ReplayRun | null {
    return this.entries.find((e) => e.run.id === id)?.run ?? null;
  }

  /** The server's run that has not ended, if any. */
  going(server: string): ReplayRun | null {
    return this.entries.find((e) => e.run.server === server && !ended(e.run))?.run ?? null;
  }

  /** What the kept answers of all runs cost, about. */
  get answersBytes(): number {
    return this.keptBytes;
  }

  start(server: string, sessions: string[], input: RunInput): ReplayRun {
    const run: ReplayRun = {
      id: randomBytes(8).toString('hex'),
      server,
      status: 'queued',
      created_unix_ms: this.options.now(),
      started_unix_ms: null,
      ended_unix_ms: null,
      error: null,
      progress: { done: 0, total: 0 },
      counts: countsOf([]),
      sessions,
      ignore_paths: [...input.ignore],
      volatile: [],
      flow_sites: input.flowSites,
      answers_dropped_unix_ms: null,
      calls: [],
    };
    const abort = new AbortController();
    const entry: Entry = { run, abort, stop: null, done: Promise.resolve(), bytes: 0 };
    const cap = setTimeout(() => {
      entry.stop = `the run reached its cap of ${capText(this.capMs)} and was stopped`;
      abort.abort();
    }, this.capMs);
    let last = 0;
    const moved = () => {
      const t = Date.now();
      if (!ended(run) && run.status !== 'queued' && t - last < PUBLISH_MS && run.progress.done < run.progress.total) return;
      last = t;
      this.options.publish(summaryOf(run));
    };
    entry.done = executeRun(run, input, {
      read: this.options.read,
      signal: abort.signal,
      stopReason: () => entry.stop,
      moved,
      keep: (call, bytes) => this.keep(entry, call, bytes),
      now: this.options.now,
    }).finally(() => clearTimeout(cap));
    this.entries.unshift(entry);
    this.trim();
    return run;
  }

  /** Stops a run and waits until its server is gone; false once it had ended. */
  async cancel(id: string): Promise<boolean> {
    const entry = this.entries.find((e) => e.run.id === id);
    if (!entry || ended(entry.run)) return false;
    entry.stop = 'cancelled';
    entry.abort.abort();
    await entry.done;
    return true;
  }

  /** Compares the kept answers again with other ignored paths; the server is not called. */
  recompare(run: ReplayRun, ignore: readonly string[]): void {
    run.ignore_paths = [...ignore];
    run.calls = run.calls.map((c) => {
      if (c.verdict !== 'same' && c.verdict !== 'differs') return c;
      const v = verdictOf(c.recorded, c.live, null, ignore);
      return { ...c, verdict: v.verdict, diffs: v.diffs, error: v.error };
    });
    run.counts = countsOf(run.calls);
    run.volatile = volatilePaths(run.calls);
  }

  /** The call as `entry` keeps it, once the answers of all runs fit the budget again. */
  private keep(entry: Entry, call: ReplayCall, bytes: number): ReplayCall {
    if (entry.run.answers_dropped_unix_ms !== null) return withoutAnswers(call);
    entry.bytes += bytes;
    this.keptBytes += bytes;
    // Oldest first (the list is newest first), the run adding last.
    for (let i = this.entries.length - 1; i >= 0 && this.keptBytes > this.answersMaxBytes; i--) {
      const e = this.entries[i];
      if (e && e !== entry) this.drop(e);
    }
    if (this.keptBytes > this.answersMaxBytes) this.drop(entry);
    return entry.run.answers_dropped_unix_ms === null ? call : withoutAnswers(call);
  }

  /** Lets a run's answers go; its verdicts and differences stay. */
  private drop(entry: Entry): void {
    if (entry.run.answers_dropped_unix_ms !== null) return;
    entry.run.calls = entry.run.calls.map(withoutAnswers);
    entry.run.answers_dropped_unix_ms = this.options.now();
    this.keptBytes -= entry.bytes;
    entry.bytes = 0;
    this.options.publish(summaryOf(entry.run));
  }

  /** Drops the oldest ended runs past the most kept (a run still going is never dropped). */
  private trim(): void {
    for (let i = this.entries.length - 1; i >= 0 && this.entries.length > REPLAY_RUNS_KEPT; i--) {
      const e = this.entries[i];
      if (e && ended(e.run)) {
        this.keptBytes -= e.bytes;
        this.entries.splice(i, 1);
      }
    }
  }
}
