// Where jobs live on disk (console-api.md §5.4): `console/jobs/<id>.json` is the job without its output,
// written whole (temp file beside, renamed) so a console killed at any moment leaves valid JSON; its output
// is `<id>.log`, only ever appended. After a restart the records are read back; a job that was still queued
// or running is failed (never re-run), so nothing hangs. Reports that jobs write sit beside them
// (`<id>.audit.json`, `<id>.stage.json`, ...) and are not records.
import { appendFile, mkdir, open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobSchema, type Job } from '../../shared/jobs.ts';
import { JOB_OUTPUT_TAIL_BYTES, JOB_RECORD_MAX_BYTES } from '../../shared/limits.ts';
import { writeFileAtomic } from '../data/atomic.ts';
import { AUDIT_RECORD, JOB_RECORDS, JSON_FILE } from '../store/log-names.ts';

export const RESTART_NOTE = 'engine-console: the console stopped before this job finished\n';

export function jobsDir(dataDir: string): string {
  return join(dataDir, JOB_RECORDS);
}

export function logPath(dataDir: string, id: string): string {
  return join(jobsDir(dataDir), `${id}.log`);
}

/**
 * The last `max` bytes of a log, starting at a line: when the log is longer, start `max` bytes from the end
 * and move past the first newline there (if any). Invalid UTF-8 becomes U+FFFD.
 */
export function tailOf(bytes: Uint8Array, max: number = JOB_OUTPUT_TAIL_BYTES): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length <= max) return buf.toString('utf8');
  let rest = buf.subarray(buf.length - max);
  const newline = rest.indexOf(0x0a);
  if (newline !== -1) rest = rest.subarray(newline + 1);
  return rest.toString('utf8');
}

/** A job's output: all of it, or its tail (only the tail is read: a flooding job's log may be huge). A missing log gives "". */
export async function readOutput(dataDir: string, id: string, whole: boolean): Promise<string> {
  try {
    if (whole) return (await readFile(logPath(dataDir, id))).toString('utf8');
    const handle = await open(logPath(dataDir, id), 'r');
    try {
      const size = (await handle.stat()).size;
      // One byte more than the tail, so that tailOf sees the log is longer and starts at a line.
      const n = Math.min(size, JOB_OUTPUT_TAIL_BYTES + 1);
      const buf = Buffer.alloc(n);
      let got = 0;
      while (got < n) {
        const { bytesRead } = await handle.read(buf, got, n - got, size - n + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return tailOf(buf.subarray(0, got));
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

export async function appendLog(dataDir: string, id: string, text: string): Promise<void> {
  await mkdir(jobsDir(dataDir), { recursive: true });
  await appendFile(logPath(dataDir, id), text);
}

/** Writes `<id>.json` whole: the job with `output: ""`, pretty. */
export async function saveJob(dataDir: string, job: Job): Promise<void> {
  await mkdir(jobsDir(dataDir), { recursive: true });
  await writeFileAtomic(join(jobsDir(dataDir), `${job.id}${JSON_FILE}`), `${JSON.stringify({ ...job, output: '' }, null, 2)}\n`);
}

/** Every record in console/jobs/, oldest first by (created_unix_ms, id); files that are not jobs are skipped. */
export async function loadJobs(dataDir: string): Promise<Job[]> {
  let names: string[];
  try {
    names = await readdir(jobsDir(dataDir));
  } catch {
    return [];
  }
  const jobs: Job[] = [];
  for (const name of names) {
    if (name.startsWith('.') || !name.endsWith(JSON_FILE) || name.endsWith(AUDIT_RECORD)) continue;
    let data: unknown;
    try {
      // A record too big to be one is not read (all records are read whole at start).
      if ((await stat(join(jobsDir(dataDir), name))).size > JOB_RECORD_MAX_BYTES) continue;
      data = JSON.parse(await readFile(join(jobsDir(dataDir), name), 'utf8'));
    } catch {
      continue;
    }
    const parsed = v.safeParse(JobSchema, data);
    if (!parsed.success) continue;
    jobs.push({ ...parsed.output, output: '' });
  }
  jobs.sort((a, b) => a.created_unix_ms - b.created_unix_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return jobs;
}

/**
 * Jobs a previous console left queued or running end `failed` at `nowMs` (wall clock). Returns the jobs that
 * changed, so the caller can append RESTART_NOTE to their logs and rewrite them (unless read-only).
 */
export function recover(jobs: Job[], nowMs: number): Job[] {
  const changed: Job[] = [];
  for (const job of jobs) {
    if (job.status === 'queued' || job.status === 'running') {
      // A job that never started wrote nothing.
      if (job.status === 'queued') job.artifacts = [];
      job.status = 'failed';
      job.finished_unix_ms = nowMs;
      changed.push(job);
    }
  }
  return changed;
}
