// The console's replay runs, kept in memory for its life (the newest REPLAY_RUNS_KEPT): one running at a time
// per server, each with its cancel, its 10 min cap and its progress told to the event stream.
import { randomBytes } from 'node:crypto';
import { REPLAY_RUN_TIMEOUT_MS, REPLAY_RUNS_KEPT, type ReplayRun, type ReplaySummary } from '../../shared/replay.ts';
import { executeRun, type RunInput } from './execute.ts';
import { countsOf, verdictOf, volatilePaths } from './verdict.ts';

/** How often a moving run is told to the event stream at most. */
const PUBLISH_MS = 200;

export const summaryOf = (run: ReplayRun): ReplaySummary => {
  const { calls: _calls, ...summary } = run;
  return summary;
};

const ended = (run: ReplayRun) => run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled';

interface Entry {
  run: ReplayRun;
  abort: AbortController;
  stop: string | null;
  done: Promise<void>;
}

export class ReplayRuns {
  private readonly entries: Entry[] = [];

  constructor(
    private readonly publish: (summary: ReplaySummary) => void,
    private readonly now: () => number,
  ) {}

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

  start(server: string, sessions: string[], input: RunInput): ReplayRun {
    const run: ReplayRun = {
      id: randomBytes(8).toString('hex'),
      server,
      status: 'queued',
      created_unix_ms: this.now(),
      started_unix_ms: null,
      ended_unix_ms: null,
      error: null,
      progress: { done: 0, total: 0 },
      counts: countsOf([]),
      sessions,
      ignore_paths: [...input.ignore],
      volatile: [],
      calls: [],
    };
    const abort = new AbortController();
    const entry: Entry = { run, abort, stop: null, done: Promise.resolve() };
    const cap = setTimeout(() => {
      entry.stop = `the run reached its cap of ${REPLAY_RUN_TIMEOUT_MS / 60_000} min and was stopped`;
      abort.abort();
    }, REPLAY_RUN_TIMEOUT_MS);
    let last = 0;
    const moved = () => {
      const t = Date.now();
      if (!ended(run) && run.status !== 'queued' && t - last < PUBLISH_MS && run.progress.done < run.progress.total) return;
      last = t;
      this.publish(summaryOf(run));
    };
    entry.done = executeRun(run, input, abort.signal, () => entry.stop, moved, this.now).finally(() => clearTimeout(cap));
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

  /** Drops the oldest ended runs past the most kept (a run still going is never dropped). */
  private trim(): void {
    for (let i = this.entries.length - 1; i >= 0 && this.entries.length > REPLAY_RUNS_KEPT; i--) {
      const e = this.entries[i];
      if (e && ended(e.run)) this.entries.splice(i, 1);
    }
  }
}
