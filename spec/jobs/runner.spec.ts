import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobSchema, type Job, type JobRequest } from '../../shared/jobs.ts';
import { JOB_OUTPUT_TAIL_BYTES } from '../../shared/limits.ts';
import { buildCatalog } from '../../server/data/catalog.ts';
import { planJob, type PlanContext } from '../../server/jobs/plan.ts';
import { CANCELLED_BEFORE_NOTE, CANCELLED_NOTE, JobRunner, NO_CLI_NOTE, type RunnerOptions } from '../../server/jobs/runner.ts';
import { RESTART_NOTE, saveJob, tailOf } from '../../server/jobs/store.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { alive, pidIn } from '../support/process.ts';
import { endsWith, holds, startsWith } from '../support/assert.ts';

const runner = suite('runner');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');

let R = '';
let scratch = '';
let control = '';
let record = '';
const cleanups: (() => void)[] = [];
const savedEnv = { ...process.env };

function options(over: Partial<RunnerOptions> = {}, events: Job[] = []): RunnerOptions {
  return {
    dataDir: R,
    home: null,
    readOnly: false,
    engine: { path: FAKE },
    now: () => Date.now(),
    publish: (job) => events.push(job),
    flowKeyAt: async (path) => buildCatalog(R).flowAt(path)?.key ?? null,
    ...over,
  };
}

function planContext(): PlanContext {
  const catalog = buildCatalog(R);
  return { dataDir: R, home: null, keySet: false, redactSaltSet: false, flow: (k) => catalog.flow(k), flowDomain: async () => 'shop', offer: async () => ({ offered: true, why: 'asked' }) };
}

async function submit(r: JobRunner, body: JobRequest): Promise<Job> {
  const id = r.newId();
  return r.submit(id, await planJob(body, id, planContext()));
}

function setControl(c: Record<string, unknown>): void {
  writeFileSync(control, JSON.stringify(c));
}

function recorded(): { argv: string[]; cwd: string; pid: number }[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { argv: string[]; cwd: string; pid: number });
}

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await f();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ended = (r: JobRunner, id: string) =>
  until(`job ${id} to end`, async () => {
    const job = await r.get(id);
    return job && ['succeeded', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
  });


runner.before(() => {
  const h = copyHome();
  const t = tempDir('engine-jobs-');
  cleanups.push(h.cleanup, t.cleanup);
  R = realpathSync(h.dir);
  scratch = realpathSync(t.dir);
  control = join(scratch, 'control.json');
  record = join(scratch, 'record.jsonl');
  process.env.FAKE_ENGINE_CONTROL = control;
  process.env.FAKE_ENGINE_RECORD = record;
});
runner.after(() => {
  process.env = savedEnv;
  cleanups.forEach((c) => c());
});

runner('the tail of a log is its last 64 KiB, starting at a line', () => {
  const short = Buffer.from('a\nb\n');
  assert.is(tailOf(short), 'a\nb\n');
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const tail = tailOf(Buffer.from(lines));
  assert.ok(Buffer.byteLength(tail) <= JOB_OUTPUT_TAIL_BYTES);
  endsWith(lines, tail);
  endsWith(lines.slice(0, lines.length - tail.length), '\n', 'the tail starts at a line');
  startsWith(tail, 'line ');
});

runner('jobs run one at a time in queue order, in the data directory, with the log and record on disk', async () => {
  setControl({ wait_for: join(scratch, 'go-1') });
  const events: Job[] = [];
  const r = await JobRunner.open(options({}, events));
  const a = await submit(r, { kind: 'learn', domain: 'a1', sessions: 'logs/shop' });
  const b = await submit(r, { kind: 'learn', domain: 'b1', sessions: 'logs/shop' });
  const c = await submit(r, { kind: 'doctor' });
  assert.is(a.status, 'queued');
  assert.is(a.output, '');
  await until('the first job to start', () => recorded().length === 1);
  assert.is((await r.get(a.id))!.status, 'running');
  assert.is((await r.get(b.id))!.status, 'queued');
  assert.is((await r.get(c.id))!.status, 'queued');
  assert.is(recorded().length, 1, 'nothing else runs while the first job runs');
  writeFileSync(join(scratch, 'go-1'), '');
  const done = await ended(r, c.id);
  assert.is(done.status, 'succeeded');
  assert.is(done.exit_code, 0);
  const runs = recorded();
  assert.equal(runs.map((x) => x.argv[0] === 'learn' ? x.argv[4] : x.argv[0]), ['a1', 'b1', 'doctor']);
  assert.equal(runs.map((x) => realpathSync(x.cwd)), runs.map(() => R));
  const first = (await r.get(a.id))!;
  assert.is(first.output.split('\n')[0], `$ engine learn --sessions ${R}/logs/shop --domain a1 --out ${R}/a1.flow.json --habit-only`);
  assert.match(first.output, 'fake engine learn\n');
  assert.equal(first.artifacts, [{ kind: 'flow', path: 'a1.flow.json', key: 'a1' }], 'a flow artifact gets its key once the job ends');
  const onDisk = JSON.parse(readFileSync(join(R, 'console/jobs', `${a.id}.json`), 'utf8')) as unknown;
  const parsed = v.parse(JobSchema, onDisk);
  assert.is(parsed.status, 'succeeded');
  assert.is(parsed.output, '');
  assert.equal(events.filter((e) => e.id === a.id).map((e) => e.status).filter((s, i, all) => all[i - 1] !== s), ['queued', 'running', 'succeeded']);
  assert.equal((await r.list()).map((j) => j.id).slice(0, 3), [c.id, b.id, a.id], 'newest first');
  await r.stop();
});

runner('a queued job cancelled never runs; an ended job cannot be cancelled; an unknown one is unknown', async () => {
  writeFileSync(record, '');
  setControl({ wait_for: join(scratch, 'go-2') });
  const r = await JobRunner.open(options());
  const a = await submit(r, { kind: 'learn', domain: 'a2', sessions: 'logs/shop' });
  const b = await submit(r, { kind: 'learn', domain: 'b2', sessions: 'logs/shop' });
  await until('the first job to start', () => recorded().length === 1);
  const cancelled = await r.cancel(b.id);
  assert.ok(cancelled.ok);
  if (cancelled.ok) {
    assert.is(cancelled.job.status, 'cancelled');
    assert.is(cancelled.job.output, CANCELLED_BEFORE_NOTE);
    assert.ok(cancelled.job.finished_unix_ms !== null);
  }
  writeFileSync(join(scratch, 'go-2'), '');
  await ended(r, a.id);
  await r.stop();
  assert.equal(recorded().map((x) => x.argv[4]), ['a2'], 'the cancelled job never ran');
  const again = await r.cancel(b.id);
  assert.equal(again.ok ? 'ok' : again.reason, 'ended');
  const unknown = await r.cancel('nope');
  assert.equal(unknown.ok ? 'ok' : unknown.reason, 'unknown');
});

runner('cancelling a running job kills its whole process tree and ends it cancelled', async () => {
  const grandchild = join(scratch, 'grandchild.pid');
  const pidfile = join(scratch, 'child.pid');
  setControl({ wait_for: join(scratch, 'never'), grandchild, pidfile });
  const r = await JobRunner.open(options());
  const a = await submit(r, { kind: 'doctor' });
  const gpid = await until('the grandchild', () => pidIn(grandchild));
  const cpid = Number(readFileSync(pidfile, 'utf8'));
  assert.equal({ grandchild: alive(gpid), child: alive(cpid) }, { grandchild: true, child: true });
  const answer = await r.cancel(a.id);
  assert.ok(answer.ok);
  const done = await ended(r, a.id);
  assert.is(done.status, 'cancelled');
  assert.is(done.exit_code, 137);
  endsWith(done.output, CANCELLED_NOTE, done.output);
  await until('the CLI and its grandchild to be gone', () => !alive(gpid) && !alive(cpid));
  await r.stop();
});

runner('the list carries the last 64 KiB of output while the job itself carries all of it', async () => {
  setControl({ bytes: 150_000 });
  const r = await JobRunner.open(options());
  const a = await submit(r, { kind: 'doctor' });
  const full = await ended(r, a.id);
  assert.ok(Buffer.byteLength(full.output) > 150_000, `${full.status} ${full.exit_code}: ${Buffer.byteLength(full.output)} bytes, ending ${JSON.stringify(full.output.slice(-200))}`);
  startsWith(full.output, `$ engine doctor --data ${R}\n`);
  const listed = (await r.list()).find((j) => j.id === a.id)!;
  assert.ok(Buffer.byteLength(listed.output) <= JOB_OUTPUT_TAIL_BYTES);
  endsWith(full.output, listed.output);
  endsWith(full.output.slice(0, full.output.length - listed.output.length), '\n');
  assert.is(listed.output, tailOf(readFileSync(join(R, 'console/jobs', `${a.id}.log`))));
  await r.stop();
});

runner('stdout and stderr are interleaved line by line; a failing CLI fails the job with its code', async () => {
  setControl({ lines: 4, exit: 3 });
  const r = await JobRunner.open(options());
  const a = await submit(r, { kind: 'doctor' });
  const done = await ended(r, a.id);
  assert.is(done.status, 'failed');
  assert.is(done.exit_code, 3);
  for (const line of ['line 1 of 4 on stdout', 'line 2 of 4 on stderr', 'line 3 of 4 on stdout', 'line 4 of 4 on stderr']) {
    assert.match(done.output, `${line}\n`, line);
  }
  await r.stop();
});

runner('a burst of lines in one write is logged line by line, in order', async () => {
  setControl({ burst: 5000 });
  const r = await JobRunner.open(options());
  const a = await submit(r, { kind: 'doctor' });
  const done = await ended(r, a.id);
  const lines = done.output.split('\n').filter((l) => l.startsWith('burst '));
  assert.is(lines.length, 5000);
  assert.equal(lines, lines.map((_, i) => `burst ${i + 1}`));
  await r.stop();
});

runner('with no CLI a job fails with the reference\'s message and no $ line', async () => {
  const r = await JobRunner.open(options({ engine: null }));
  const a = await submit(r, { kind: 'doctor' });
  const done = await ended(r, a.id);
  assert.is(done.status, 'failed');
  assert.is(done.exit_code, null);
  assert.is(done.output, NO_CLI_NOTE);
  await r.stop();
});

runner('a CLI that cannot be started fails the job after its $ line', async () => {
  const r = await JobRunner.open(options({ engine: { path: join(scratch, 'no-such-engine') } }));
  const a = await submit(r, { kind: 'doctor' });
  const done = await ended(r, a.id);
  assert.is(done.status, 'failed');
  assert.is(done.exit_code, null);
  const [first, second] = done.output.split('\n');
  assert.is(first, `$ engine doctor --data ${R}`);
  startsWith(second!, `engine-console: starting ${join(scratch, 'no-such-engine')}: `, second);
  await r.stop();
});

runner('after a restart the history is kept and unfinished jobs are failed, never re-run', async () => {
  const base: Job = {
    id: '20260101T000000.000Z-aaaa', kind: 'doctor', title: 'Check the installation', params: { kind: 'doctor' },
    status: 'running', created_unix_ms: 1, started_unix_ms: 2, finished_unix_ms: null, exit_code: null, alarm: false, output: '', artifacts: [], defaults: [], replaced: [],
  };
  await saveJob(R, base);
  await saveJob(R, { ...base, id: '20260101T000000.000Z-bbbb', status: 'queued', started_unix_ms: null });
  writeFileSync(join(R, 'console/jobs', '20260101T000000.000Z-aaaa.log'), '$ engine doctor\nhalf\n');
  writeFileSync(join(R, 'console/jobs', 'not-a-job.json'), '{"x":1}');
  writeFileSync(record, '');
  const r = await JobRunner.open(options());
  const list = await r.list();
  const a = list.find((j) => j.id === base.id)!;
  const b = list.find((j) => j.id === '20260101T000000.000Z-bbbb')!;
  assert.is(a.status, 'failed');
  assert.is(b.status, 'failed');
  assert.ok(a.finished_unix_ms !== null);
  assert.ok(a.finished_unix_ms > 1, String(a.finished_unix_ms));
  assert.is(a.output, `$ engine doctor\nhalf\n${RESTART_NOTE}`);
  assert.is(b.output, RESTART_NOTE);
  holds(list.map((j) => `${j.kind} ${j.status}`), 'learn succeeded', 'earlier jobs are listed');
  assert.is(v.parse(JobSchema, JSON.parse(readFileSync(join(R, 'console/jobs', `${base.id}.json`), 'utf8'))).status, 'failed');
  await new Promise((res) => setTimeout(res, 100));
  assert.is(recorded().length, 0, 'nothing is re-run');
  await r.stop();
});

runner('read-only mode writes nothing at a restart', async () => {
  const id = '20260101T000000.000Z-cccc';
  await saveJob(R, {
    id, kind: 'doctor', title: 'Check the installation', params: { kind: 'doctor' }, status: 'running',
    created_unix_ms: 1, started_unix_ms: 2, finished_unix_ms: null, exit_code: null, alarm: false, output: '', artifacts: [], defaults: [], replaced: [],
  });
  const before = readFileSync(join(R, 'console/jobs', `${id}.json`), 'utf8');
  const r = await JobRunner.open(options({ readOnly: true }));
  assert.is((await r.get(id))!.status, 'failed');
  assert.is(readFileSync(join(R, 'console/jobs', `${id}.json`), 'utf8'), before);
  assert.not.ok(existsSync(join(R, 'console/jobs', `${id}.log`)));
  await r.stop();
});

runner.run();
