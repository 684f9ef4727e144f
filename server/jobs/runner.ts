// The job runner (console-api.md §5.3, spec §3 Job): one queue, one job at a time in submission order, each
// job one run of the CLI as a subprocess — in the data directory, with the console's own environment (so the
// key and the salt reach the CLI; the console only checks that they are set), stdin closed, stdout and stderr
// interleaved line by line into `console/jobs/<id>.log` under a `$ engine …` first line.
//
// Lifecycle: queued → running → succeeded | failed | cancelled; a queued job can be cancelled at once and is
// then skipped. The CLI is spawned as the leader of its own process group, so a cancel (or the console
// stopping) kills the whole tree, grandchildren included. Every change of status is written whole to
// `<id>.json` and announced as a `job` event; output moving on is announced at most every 250 ms. A job that
// is running when the console stops is left as it is on disk, and the next start fails it (store.ts).
// Read-only mode writes nothing (and the guard refuses new jobs).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as osConstants } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Artifact, Job } from '../../shared/jobs.ts';
import { JOB_CANCEL_DRAIN_MS, JOB_OUTPUT_TAIL_BYTES, JOB_PROGRESS_MS } from '../../shared/limits.ts';
import { resolveRequestPath, shown } from '../data/paths.ts';
import { shellJoin } from '../engine/shell.ts';
import { jobId, type Plan, type PlannedArtifact } from './plan.ts';
import { dropCopy, putBackIfUnused, setAside } from './replace.ts';
import { artifactStamp, changedSince } from '../store/stamp.ts';
import { appendLog, jobsDir, loadJobs, readOutput, recover, RESTART_NOTE, saveJob, tailOf } from './store.ts';
import { mkdir, stat } from 'node:fs/promises';
import { errorText } from '../../shared/error-text.ts';

export const NO_CLI_NOTE = 'engine-console: the engine CLI was not found beside the console or on PATH; pass --engine PATH\n';
/** How long the output of a job that exited by itself is still read (a grandchild may hold the pipes). */
const JOB_EXIT_DRAIN_MS = 10_000;

export const CANCELLED_NOTE = 'engine-console: cancelled\n';
export const CANCELLED_BEFORE_NOTE = 'engine-console: cancelled before it started\n';

export interface RunnerOptions {
  /** The canonical data directory: the jobs' working directory and where console/jobs/ lives. */
  dataDir: string;
  home: string | null;
  readOnly: boolean;
  /** The CLI the jobs run; null when none was found. */
  engine: { path: string } | null;
  /** The console's clock (fixed in tests): ids, created/started/finished times. */
  now(): number;
  /** Announces a job (with the tail of its output) on the event stream. */
  publish(job: Job): void;
  /** The catalog key of the flow at this path, if the catalog has it. */
  flowKeyAt(path: string): Promise<string | null>;
  /** Where failures to keep a record are reported (stderr). */
  warn?(line: string): void;
}

export type CancelResult =
  | { ok: true; job: Job }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'ended'; job: Job };

interface Entry {
  /** The record; `output` is always "" here (it lives in the log). */
  job: Job;
  argv: string[];
  /** The planned artifacts (absolute paths) and their stamps just before the CLI started (null: absent). */
  planned: PlannedArtifact[];
  before: Map<string, string | null>;
  /** The file the job may write over, kept in the trash before it runs. */
  replaces: Plan['replaces'];
  /** The output written by this console, kept only as far as the tail needs; null for jobs of a past run. */
  live: LiveTail | null;
  child: ChildProcess | null;
  cancelRequested: boolean;
}

/** An entry that will not run in this console (a past run's, or before its plan is known). */
const NOT_RUN = { argv: [], planned: [], before: new Map<string, string | null>(), replaces: null };

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);
const hasEnded = (job: Job) => ENDED.has(job.status);

/** The exit code with which a kind's command says it found something to act on, not that it failed. */
function alarmExit(kind: Job['kind']): number | null {
  return kind === 'drift' ? 1 : null;
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  if (signal !== null) {
    const n = (osConstants.signals as Record<string, number | undefined>)[signal];
    if (n !== undefined) return 128 + n;
  }
  return -1;
}

export class JobRunner {
  private readonly opts: RunnerOptions;
  /** Every job, in creation order. */
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private active: Promise<void> | null = null;
  private stopping = false;
  /** All disk writes, in order: records and log appends never overtake each other. */
  private disk: Promise<void> = Promise.resolve();
  private readonly pendingLog = new Map<string, string>();

  private constructor(opts: RunnerOptions) {
    this.opts = opts;
  }

  /** Loads the jobs of earlier runs and fails those that never finished. */
  static async open(opts: RunnerOptions): Promise<JobRunner> {
    const runner = new JobRunner(opts);
    const jobs = await loadJobs(opts.dataDir);
    const changed = recover(jobs, Date.now());
    for (const job of jobs) runner.entries.set(job.id, { job, ...NOT_RUN, live: null, child: null, cancelRequested: false });
    if (!opts.readOnly) {
      for (const job of changed) {
        runner.log(job.id, RESTART_NOTE);
        await runner.settleInterrupted(runner.entries.get(job.id)!);
        runner.persist(job);
      }
      await runner.disk;
    }
    return runner;
  }

  /** A fresh id from the console's clock, unique among the jobs known. */
  newId(): string {
    for (;;) {
      const id = jobId(this.opts.now(), randomBytes(2).toString('hex'));
      if (!this.entries.has(id)) return id;
    }
  }

  /** Jobs newest first, each with the tail of its output. */
  async list(): Promise<Job[]> {
    const entries = [...this.entries.values()].reverse();
    return Promise.all(entries.map((e) => this.withOutput(e, false)));
  }

  /** One job with all of its output. */
  async get(id: string): Promise<Job | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    return this.withOutput(entry, true);
  }

  /** The record (no output), e.g. for its artifacts. */
  record(id: string): Job | undefined {
    return this.entries.get(id)?.job;
  }

  /** Queues a planned job; answers it as queued, with no output and the planned artifacts. */
  submit(id: string, plan: Plan): Job {
    const where = { dataDir: this.opts.dataDir, home: this.opts.home };
    const job: Job = {
      id,
      kind: plan.kind,
      title: plan.title,
      params: plan.params,
      status: 'queued',
      created_unix_ms: this.opts.now(),
      started_unix_ms: null,
      finished_unix_ms: null,
      exit_code: null,
      alarm: false,
      output: '',
      artifacts: plan.artifacts.map((a) => ({ kind: a.kind, path: shown(a.path, where), key: null })),
      defaults: [...plan.defaults],
      replaced: [],
    };
    this.entries.set(id, {
      job,
      argv: plan.argv,
      planned: plan.artifacts,
      before: new Map(),
      replaces: plan.replaces,
      live: new LiveTail(),
      child: null,
      cancelRequested: false,
    });
    this.persist(job);
    this.announce(this.entries.get(id)!);
    const answer: Job = { ...job, artifacts: job.artifacts.map((a) => ({ ...a })) };
    this.queue.push(id);
    this.pump();
    return answer;
  }

  async cancel(id: string): Promise<CancelResult> {
    const entry = this.entries.get(id);
    if (!entry) return { ok: false, reason: 'unknown' };
    const job = entry.job;
    if (hasEnded(job)) return { ok: false, reason: 'ended', job: await this.withOutput(entry, false) };
    if (job.status === 'queued') {
      job.status = 'cancelled';
      job.finished_unix_ms = this.opts.now();
      job.artifacts = [];
      this.log(id, CANCELLED_BEFORE_NOTE);
      this.persist(job);
      this.announce(entry);
      await this.disk;
      return { ok: true, job: await this.withOutput(entry, false) };
    }
    // Running: kill the CLI's whole process group; the runner ends the job once the CLI is gone.
    entry.cancelRequested = true;
    if (entry.child) killTree(entry.child);
    return { ok: true, job: await this.withOutput(entry, false) };
  }

  /** Stops taking turns and kills a running CLI; its record stays `running` for the next start to fail. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const entry of this.entries.values()) if (entry.child) killTree(entry.child);
    const active = this.active;
    if (active) await Promise.race([active, new Promise((r) => setTimeout(r, JOB_CANCEL_DRAIN_MS + 500))]);
    await this.disk;
  }

  /**
   * The job with its output. The record is copied first and the log read after every write queued so far,
   * so an ended job always comes with its last lines.
   */
  private async withOutput(entry: Entry, whole: boolean): Promise<Job> {
    const job: Job = { ...entry.job, artifacts: entry.job.artifacts.map((a) => ({ ...a })) };
    if (!whole && entry.live) return { ...job, output: tailOf(entry.live.bytes()) };
    await this.disk;
    return { ...job, output: await readOutput(this.opts.dataDir, entry.job.id, whole) };
  }

  private announce(entry: Entry): void {
    const output = entry.live ? tailOf(entry.live.bytes()) : '';
    this.opts.publish({ ...entry.job, artifacts: entry.job.artifacts.map((a) => ({ ...a })), output });
  }

  private onDisk(step: () => Promise<void>): void {
    this.disk = this.disk.then(step, step);
  }

  private persist(job: Job): void {
    if (this.opts.readOnly) return;
    const copy: Job = { ...job, artifacts: job.artifacts.map((a) => ({ ...a })) };
    this.onDisk(async () => {
      try {
        await saveJob(this.opts.dataDir, copy);
      } catch (err) {
        this.opts.warn?.(`engine-console: keeping job ${copy.id}: ${errorText(err)}`);
      }
    });
  }

  /** Appends to the job's log (batched, in order) and to its live tail. */
  private log(id: string, text: string): void {
    const entry = this.entries.get(id);
    entry?.live?.push(text);
    if (this.opts.readOnly) return;
    const had = this.pendingLog.has(id);
    this.pendingLog.set(id, (this.pendingLog.get(id) ?? '') + text);
    if (had) return;
    this.onDisk(async () => {
      const chunk = this.pendingLog.get(id) ?? '';
      this.pendingLog.delete(id);
      try {
        await appendLog(this.opts.dataDir, id, chunk);
      } catch (err) {
        this.opts.warn?.(`engine-console: writing the log of job ${id}: ${errorText(err)}`);
      }
    });
  }

  private pump(): void {
    if (this.active || this.stopping) return;
    let next: Entry | undefined;
    while (this.queue.length > 0) {
      const entry = this.entries.get(this.queue.shift()!);
      if (entry && entry.job.status === 'queued') {
        next = entry;
        break;
      }
    }
    if (!next) return;
    this.active = this.run(next)
      .catch((err: unknown) => this.opts.warn?.(`engine-console: job ${next.job.id}: ${errorText(err)}`))
      .finally(() => {
        this.active = null;
        this.pump();
      });
  }

  private async run(entry: Entry): Promise<void> {
    const job = entry.job;
    job.status = 'running';
    job.started_unix_ms = this.opts.now();
    this.persist(job);
    this.announce(entry);

    const engine = this.opts.engine;
    if (!engine) return this.finish(entry, 'failed', null, NO_CLI_NOTE);
    if (!this.opts.readOnly) {
      try {
        await mkdir(jobsDir(this.opts.dataDir), { recursive: true });
      } catch (err) {
        return this.finish(entry, 'failed', null, `engine-console: creating ${jobsDir(this.opts.dataDir)}: ${errorText(err)}\n`);
      }
    }
    this.log(job.id, `$ engine ${shellJoin(entry.argv)}\n`);
    if (!this.opts.readOnly) {
      const refusal = await this.prepare(entry);
      if (refusal) return this.finish(entry, 'failed', null, refusal);
    }
    if (entry.cancelRequested) return this.finish(entry, 'cancelled', null, CANCELLED_NOTE);

    let child: ChildProcess;
    try {
      child = spawn(engine.path, entry.argv, {
        cwd: this.opts.dataDir,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (err) {
      return this.finish(entry, 'failed', null, `engine-console: starting ${engine.path}: ${errorText(err)}\n`);
    }
    entry.child = child;
    if (entry.cancelRequested) killTree(child);

    let lastAnnounce = 0;
    const onLine = (line: string) => {
      this.log(job.id, `${line}\n`);
      const t = Date.now();
      if (t - lastAnnounce >= JOB_PROGRESS_MS) {
        lastAnnounce = t;
        this.announce(entry);
      }
    };
    const readers = [child.stdout, child.stderr].filter((s): s is Readable => s !== null).map((s) => readLines(s, onLine));

    const ended = await new Promise<{ error: Error } | { code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('error', (error) => resolve({ error }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    entry.child = null;
    if ('error' in ended) {
      for (const s of [child.stdout, child.stderr]) s?.destroy();
      return this.finish(entry, 'failed', null, `engine-console: starting ${engine.path}: ${ended.error.message}\n`);
    }
    // The rest of the output, for at most the drain time: a grandchild holding the pipes cannot hang the queue.
    // A cancelled job drains for the reference's 2 s; a job that ended by itself gets longer, so a busy
    // machine never cuts the last lines of a CLI that printed a lot just before it exited.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(readers),
      new Promise((r) => {
        timer = setTimeout(r, entry.cancelRequested ? JOB_CANCEL_DRAIN_MS : JOB_EXIT_DRAIN_MS);
      }),
    ]);
    clearTimeout(timer);
    for (const s of [child.stdout, child.stderr]) s?.destroy();
    if (this.stopping) return;

    const code = exitCodeOf(ended.code, ended.signal);
    if (entry.cancelRequested) return this.finish(entry, 'cancelled', code, CANCELLED_NOTE);
    if (code !== 0 && alarmExit(entry.job.kind) === code) return this.finish(entry, 'succeeded', code, '', true);
    return this.finish(entry, code === 0 ? 'succeeded' : 'failed', code, '');
  }

  /**
   * Before the CLI starts: the file it may write over goes to the trash, then every planned artifact is
   * stamped. Answers the note to fail the job with when the old file cannot be set aside.
   */
  private async prepare(entry: Entry): Promise<string | null> {
    const where = { dataDir: this.opts.dataDir, home: this.opts.home };
    if (entry.replaces !== null) {
      try {
        const { path, keep } = entry.replaces;
        const replaced = await setAside(this.opts.dataDir, path, this.opts.now(), keep);
        if (replaced) {
          entry.job.replaced = [replaced];
          // Kept at once: should the console stop mid-job, the next start knows where the old file went.
          this.persist(entry.job);
          const how = keep === 'move' ? 'moved the old' : 'copied the current';
          this.log(entry.job.id, `engine-console: ${how} ${replaced.path} to the trash (console/trash/${replaced.trash_id}/${replaced.path}) before the job writes over it\n`);
        }
      } catch (err) {
        return `engine-console: ${shown(entry.replaces.path, where)} was not kept in the trash, so the job did not run to write over it: ${errorText(err)}\n`;
      }
    }
    for (const a of entry.planned) entry.before.set(a.path, await artifactStamp(a.path));
    return null;
  }

  /**
   * A job the console stopped during: with no stamps from before it ran, what it wrote is what changed
   * since it started; a file it set aside goes back unless something took its place.
   */
  private async settleInterrupted(entry: Entry): Promise<void> {
    const job = entry.job;
    const started = job.started_unix_ms;
    const where = { dataDir: this.opts.dataDir, home: this.opts.home };
    const kept: Artifact[] = [];
    for (const a of started === null ? [] : job.artifacts) {
      try {
        if ((await stat(resolveRequestPath(a.path, where))).mtimeMs >= started!) kept.push(a);
      } catch {
        // gone, or no longer a path the console may read
      }
    }
    job.artifacts = kept;
    await this.restoreUnused(entry);
  }

  /** A file set aside that nothing took the place of goes back; the others stay listed as replaced. */
  private async restoreUnused(entry: Entry): Promise<void> {
    const kept = [];
    const copied = entry.replaces?.keep === 'copy' ? entry.replaces.path : null;
    for (const r of entry.job.replaced) {
      try {
        if (copied !== null && (await artifactStamp(copied)) === entry.before.get(copied)) {
          await dropCopy(this.opts.dataDir, r);
          continue;
        }
        if (await putBackIfUnused(this.opts.dataDir, r)) {
          this.log(entry.job.id, `engine-console: nothing was written over ${r.path}, so the old file is back from the trash\n`);
          continue;
        }
      } catch (err) {
        this.log(entry.job.id, `engine-console: putting ${r.path} back from the trash: ${errorText(err)}; it is still there (console/trash/${r.trash_id})\n`);
      }
      kept.push(r);
    }
    entry.job.replaced = kept;
  }

  private async finish(
    entry: Entry,
    status: 'succeeded' | 'failed' | 'cancelled',
    exitCode: number | null,
    note: string,
    alarm = false,
  ): Promise<void> {
    const job = entry.job;
    // Everything about the end changes at once, so no reader sees an ended job with planned artifacts.
    const artifacts = await this.written(entry);
    if (note) this.log(job.id, note);
    if (!this.opts.readOnly) await this.restoreUnused(entry);
    job.status = status;
    job.exit_code = exitCode;
    job.alarm = alarm;
    job.finished_unix_ms = this.opts.now();
    job.artifacts = artifacts;
    this.persist(job);
    this.announce(entry);
    await this.disk;
  }

  /** The artifacts the job created or changed while it ran (none unless it was stamped); a flow gets its catalog key. */
  private async written(entry: Entry): Promise<Artifact[]> {
    const out: Artifact[] = [];
    for (const [i, a] of entry.planned.entries()) {
      const shownAs = entry.job.artifacts[i];
      if (!shownAs || !entry.before.has(a.path)) continue;
      if (!(await changedSince(a.path, entry.before.get(a.path) ?? null))) continue;
      const key = a.kind === 'flow' ? await this.opts.flowKeyAt(a.path).catch(() => null) : null;
      out.push({ kind: a.kind, path: shownAs.path, key });
    }
    return out;
  }
}

/**
 * The end of a job's output as this console wrote it: enough bytes that tailOf() gives what it would give on
 * the whole log (one byte more than the tail, so a cut still starts past a newline). Chunks are joined only
 * when the tail is read, so a flood of lines costs no copying per line.
 */
class LiveTail {
  private chunks: Buffer[] = [];
  private size = 0;

  push(text: string): void {
    const chunk = Buffer.from(text, 'utf8');
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > 4 * JOB_OUTPUT_TAIL_BYTES) this.compact();
  }

  bytes(): Buffer {
    if (this.chunks.length !== 1) this.compact();
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private compact(): void {
    let all = Buffer.concat(this.chunks, this.size);
    if (all.length > JOB_OUTPUT_TAIL_BYTES + 1) all = Buffer.from(all.subarray(all.length - JOB_OUTPUT_TAIL_BYTES - 1));
    this.chunks = [all];
    this.size = all.length;
  }
}

/** Kills the CLI and everything it started (it leads its own process group). */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Calls `onLine` for each line of `stream` (without its `\n` or `\r\n`); resolves at the end of the stream. */
function readLines(stream: Readable, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    lines.on('line', onLine);
    lines.once('close', () => resolve());
    stream.once('error', () => resolve());
  });
}
