import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobListSchema, JobSchema, type Job } from '../../shared/jobs.ts';
import { JOB_OUTPUT_TAIL_BYTES } from '../../shared/limits.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { endsWith, holds, startsWith } from '../support/assert.ts';
import { alive, pidIn } from '../support/process.ts';

const jobs = suite('jobs api');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');

let c: Launched;
let R = '';
let scratch = '';
let control = '';
let record = '';
const cleanups: (() => void)[] = [];

type Run = { argv: string[]; cwd: string; salt_set: boolean; key_set: boolean };
function recorded(): Run[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Run);
}
function setControl(ctl: Record<string, unknown>): void {
  writeFileSync(control, JSON.stringify(ctl));
}

async function until<T>(what: string, f: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await f();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function post(l: Launched, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await l.api('/api/jobs', { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function list(l: Launched): Promise<Job[]> {
  const res = await l.api('/api/jobs');
  assert.is(res.status, 200);
  return v.parse(JobListSchema, await res.json()).items;
}

async function one(l: Launched, id: string): Promise<Job> {
  const res = await l.api(`/api/jobs/${id}`);
  assert.is(res.status, 200);
  return v.parse(JobSchema, await res.json());
}

const ended = (l: Launched, id: string) =>
  until(`job ${id} to end`, async () => {
    const job = await one(l, id);
    return ['succeeded', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
  });

async function submitted(l: Launched, body: unknown): Promise<Job> {
  const res = await post(l, body);
  assert.is(res.status, 202, JSON.stringify(res.body));
  const job = v.parse(JobSchema, res.body);
  assert.is(job.status, 'queued');
  assert.is(job.output, '');
  return job;
}

/** A refused request answers `status` and leaves no job behind and nothing run. */
async function refused(body: unknown, status: number, message?: string): Promise<void> {
  const before = (await list(c)).length;
  const runs = recorded().length;
  const res = await post(c, body);
  assert.is(res.status, status, JSON.stringify(res.body));
  const error = (res.body as { error: string }).error;
  if (message !== undefined) assert.is(error, message);
  else assert.type(error, 'string');
  assert.is((await list(c)).length, before, 'no job is created');
  assert.is(recorded().length, runs);
}

jobs.before(async () => {
  const h = copyHome();
  const t = tempDir('engine-http-jobs-');
  cleanups.push(h.cleanup, t.cleanup);
  R = realpathSync(h.dir);
  scratch = realpathSync(t.dir);
  control = join(scratch, 'control.json');
  record = join(scratch, 'record.jsonl');
  setControl({});
  c = await launch({
    dataDir: R,
    args: ['--engine', FAKE],
    env: { FAKE_ENGINE_RECORD: record, FAKE_ENGINE_CONTROL: control, ENGINE_REDACT_SALT: 'pepper' },
  });
});
jobs.after(async () => {
  await c?.stop();
  cleanups.forEach((f) => f());
});

jobs('a learn job runs the CLI with the exact argv, in the data directory, and ends with its flow artifact', async () => {
  const job = await submitted(c, { kind: 'learn', domain: 'notes', sessions: 'logs/shop' });
  assert.is(job.title, 'Learn notes from logs/shop');
  assert.equal(job.params, { constants: false, domain: 'notes', habit_only: true, kind: 'learn', out: 'notes.flow.json', overwrite: false, sessions: 'logs/shop' });
  assert.equal(job.artifacts, [{ kind: 'flow', path: 'notes.flow.json', key: null }]);
  assert.match(job.id, /^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{4}$/);
  const done = await ended(c, job.id);
  assert.is(done.status, 'succeeded');
  assert.is(done.exit_code, 0);
  assert.equal(done.artifacts, [{ kind: 'flow', path: 'notes.flow.json', key: 'notes' }]);
  const run = recorded().at(-1)!;
  assert.equal(run.argv, ['learn', '--sessions', `${R}/logs/shop`, '--domain', 'notes', '--out', `${R}/notes.flow.json`, '--habit-only']);
  assert.is(realpathSync(run.cwd), R);
  assert.is(run.salt_set, true, "the console's environment reaches the CLI");
  startsWith(done.output, `$ engine learn --sessions ${R}/logs/shop --domain notes --out ${R}/notes.flow.json --habit-only\n`);
});

jobs('learn refusals: an existing output (409), a bad domain, no key for an arbiter, a missing directory (400)', async () => {
  await refused({ kind: 'learn', domain: 'notes', sessions: 'logs/shop' }, 409, 'notes.flow.json exists: choose another path, or overwrite it');
  await refused({ kind: 'learn', domain: '.x', sessions: 'logs/shop' }, 400);
  await refused(
    { kind: 'learn', domain: 'z', sessions: 'logs/shop', habit_only: false },
    400,
    "fitting an arbiter asks TypeSafe's Jev, and neither TYPESAFE_API_KEY nor TYPESAFE_API_KEY_FILE is set in the console's environment: learn with habit_only",
  );
  await refused({ kind: 'learn', domain: 'z', sessions: 'logs/none' }, 400, 'sessions: logs/none is not a directory');
  await refused({ kind: 'learn', domain: 'z', sessions: '/etc' }, 400);
  await refused({ kind: 'banana', flow: 'shop' }, 400, 'the job is not as expected: kind: one of learn, promote, audit, stage, redact, doctor');
  await refused({ kind: 'learn', domain: 'z' }, 400, 'the job is not as expected: a learn job needs domain and sessions');
});

jobs('a promote job names the flow file, the cache, the bar and its report', async () => {
  await refused({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop' }, 409, 'shop.promoted.flow.json exists: choose another path, or overwrite it');
  await refused({ kind: 'promote', flow: 'nope', sessions: 'shadow/shop' }, 400, 'no flow "nope"');
  await refused({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', out: 'p.flow.json', min_lower: 1.5 }, 400, 'min_lower 1.5: from 0 to 1');
  const job = await submitted(c, { kind: 'promote', flow: 'shop', sessions: 'shadow/shop', overwrite: true, threshold: 0.25 });
  assert.is(job.title, 'Promote shop on shadow/shop');
  assert.equal(job.artifacts, [
    { kind: 'flow', path: 'shop.promoted.flow.json', key: null },
    { kind: 'report', path: `console/jobs/${job.id}.promote.md`, key: null },
  ]);
  await ended(c, job.id);
  assert.equal(recorded().at(-1)!.argv, [
    'promote', '--flow', `${R}/shop.flow.json`, '--sessions', `${R}/shadow/shop`, '--oracle-cache', `${R}/oracle-cache`,
    '--threshold', '0.25', '--min-used', '0.7', '--min-lower', '0.5', '--min-tasks', '3',
    '--out', `${R}/shop.promoted.flow.json`, '--report', `${R}/console/jobs/${job.id}.promote.md`,
  ]);
});

jobs('an audit job writes its reports, and they are served as artifacts with their types', async () => {
  const job = await submitted(c, { kind: 'audit', flow: 'shop', sessions: 'logs/shop', decider: 'habit' });
  assert.is(job.title, 'Audit shop on logs/shop');
  assert.equal(job.params, { decider: 'habit', flow: 'shop', kind: 'audit', sessions: 'logs/shop' });
  const done = await ended(c, job.id);
  assert.equal(recorded().at(-1)!.argv, [
    'audit', '--flow', `${R}/shop.flow.json`, '--sessions', `${R}/logs/shop`, '--oracle', 'replay', '--oracle-cache', `${R}/oracle-cache`,
    '--out', `${R}/console/jobs/${job.id}.audit.md`, '--json', `${R}/console/jobs/${job.id}.audit.json`, '--decider', 'habit',
  ]);
  assert.equal(done.artifacts.map((a) => a.path), [`console/jobs/${job.id}.audit.json`, `console/jobs/${job.id}.audit.md`]);
  const json = await c.api(`/api/jobs/${job.id}/artifacts/0`);
  assert.is(json.status, 200);
  assert.is(json.headers.get('content-type'), 'application/json');
  assert.equal(await json.json(), { fake: 'audit', flag: '--json' });
  const md = await c.api(`/api/jobs/${job.id}/artifacts/1`);
  assert.is(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.is(await md.text(), '# fake audit --out\n');
  const missing = await c.api(`/api/jobs/${job.id}/artifacts/2`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { error: `job ${job.id} has no artifact 2` });
  assert.is((await c.api(`/api/jobs/${job.id}/artifacts/x`)).status, 400);
  assert.is((await c.api('/api/jobs/nope/artifacts/0')).status, 404);
});

jobs('a stage job learns beside the committed flow, in its domain', async () => {
  await refused({ kind: 'stage', flow: 'shop', sessions: 'shadow/shop', window: 0 }, 400, 'window: at least 1 session');
  writeFileSync(join(R, 'broken.flow.json'), 'not json');
  const broken = await post(c, { kind: 'stage', flow: 'broken', sessions: 'shadow/shop' });
  assert.is(broken.status, 422);
  startsWith((broken.body as { error: string }).error, 'broken.flow.json does not load: ');
  const job = await submitted(c, { kind: 'stage', flow: 'shop', sessions: 'shadow/shop', half_life: 12.5 });
  assert.is(job.title, 'Stage shop from shadow/shop');
  assert.equal(job.params, { constants: false, decider: null, flow: 'shop', half_life: 12.5, kind: 'stage', sessions: 'shadow/shop', window: 50 });
  assert.equal(job.artifacts.map((a) => [a.kind, a.path]), [
    ['flow', 'shop.staged.flow.json'],
    ['report', `console/jobs/${job.id}.stage.md`],
    ['report', `console/jobs/${job.id}.stage.json`],
  ]);
  await ended(c, job.id);
  assert.equal(recorded().at(-1)!.argv, [
    'stage', '--flow', `${R}/shop.flow.json`, '--domain', 'shop', '--sessions', `${R}/shadow/shop`, '--oracle-cache', `${R}/oracle-cache`,
    '--window', '50', '--out', `${R}/console/jobs/${job.id}.stage.md`, '--json', `${R}/console/jobs/${job.id}.stage.json`, '--half-life', '12.5',
  ]);
});

jobs('a redact job copies into a directory of its own', async () => {
  await refused({ kind: 'redact', sessions: 'logs/shop', out: 'logs/shop/x' }, 400, 'out: the redacted copy goes in a directory of its own, apart from the sessions');
  await refused({ kind: 'redact', sessions: 'logs/shop', out: 'redacted', hash_fields: ['a b'] }, 400, 'hash_fields: field names, without spaces');
  const job = await submitted(c, { kind: 'redact', sessions: 'logs/shop', out: 'redacted', keep_shared: 2, hash_fields: ['email,name'] });
  assert.is(job.title, 'Redact logs/shop');
  assert.equal(job.params, { hash_fields: ['email', 'name'], keep_shared: 2, kind: 'redact', out: 'redacted', sessions: 'logs/shop' });
  assert.equal(job.artifacts, [{ kind: 'dir', path: 'redacted', key: null }]);
  const done = await ended(c, job.id);
  assert.equal(recorded().at(-1)!.argv, ['redact', '--sessions', `${R}/logs/shop`, '--out', `${R}/redacted`, '--keep-shared', '2', '--hash-field', 'email', '--hash-field', 'name']);
  assert.equal(done.artifacts, [{ kind: 'dir', path: 'redacted', key: null }]);
  const dir = await c.api(`/api/jobs/${job.id}/artifacts/0`);
  assert.is(dir.status, 400);
  assert.equal(await dir.json(), { error: 'redacted is a directory' });
});

jobs('a doctor job checks the served data directory; a failing CLI fails the job with its code', async () => {
  setControl({ exit: 1 });
  const job = await submitted(c, { kind: 'doctor' });
  assert.is(job.title, 'Check the installation');
  assert.equal(job.params, { kind: 'doctor' });
  assert.equal(job.artifacts, []);
  const done = await ended(c, job.id);
  setControl({});
  assert.equal(recorded().at(-1)!.argv, ['doctor', '--data', R]);
  assert.is(done.status, 'failed');
  assert.is(done.exit_code, 1);
});

jobs('jobs run one at a time; cancel works for queued (never runs), running (tree killed) and ended (409) jobs', async () => {
  const grandchild = join(scratch, 'grand.pid');
  setControl({ wait_for: join(scratch, 'never'), grandchild });
  const a = await submitted(c, { kind: 'doctor' });
  const b = await submitted(c, { kind: 'learn', domain: 'queued1', sessions: 'logs/shop' });
  const gpid = await until('the grandchild', () => pidIn(grandchild));
  const runs = recorded().length;
  assert.is((await one(c, a.id)).status, 'running');
  assert.is((await one(c, b.id)).status, 'queued');

  const cb = await c.api(`/api/jobs/${b.id}/cancel`, { method: 'POST' });
  assert.is(cb.status, 200);
  const cancelledB = v.parse(JobSchema, await cb.json());
  assert.is(cancelledB.status, 'cancelled');
  assert.is(cancelledB.output, 'engine-console: cancelled before it started\n');

  const ca = await c.api(`/api/jobs/${a.id}/cancel`, { method: 'POST' });
  assert.is(ca.status, 200);
  const doneA = await ended(c, a.id);
  assert.is(doneA.status, 'cancelled');
  assert.is(doneA.exit_code, 137);
  endsWith(doneA.output, 'engine-console: cancelled\n');
  await until('the grandchild to be gone', () => !alive(gpid));
  assert.is(recorded().length, runs, 'the cancelled queued job never ran');

  const again = await c.api(`/api/jobs/${b.id}/cancel`, { method: 'POST' });
  assert.is(again.status, 409);
  assert.equal(await again.json(), { error: `job ${b.id} has ended (cancelled): there is nothing to cancel` });
  const unknown = await c.api('/api/jobs/nope/cancel', { method: 'POST' });
  assert.is(unknown.status, 404);
  assert.equal(await unknown.json(), { error: 'no job "nope"' });
  assert.is((await c.api('/api/jobs/nope')).status, 404);
  setControl({});
});

jobs('the list carries the last 64 KiB of each output, newest first; one job carries all of it', async () => {
  setControl({ bytes: 120_000 });
  const job = await submitted(c, { kind: 'doctor' });
  const full = await ended(c, job.id);
  setControl({});
  const size = Buffer.byteLength(full.output);
  assert.ok(size > 120_000, `${full.status} (exit ${full.exit_code}) with ${size} bytes of output: ${JSON.stringify(full.output.slice(0, 120))} … ${JSON.stringify(full.output.slice(-200))}`);
  const items = await list(c);
  assert.is(items[0]!.id, job.id);
  const created = items.map((j) => j.created_unix_ms);
  assert.equal(created, [...created].sort((x, y) => y - x));
  const tail = items[0]!.output;
  assert.ok(Buffer.byteLength(tail) <= JOB_OUTPUT_TAIL_BYTES);
  endsWith(full.output, tail);
  endsWith(full.output.slice(0, full.output.length - tail.length), '\n', 'the tail starts at a line');
});

jobs('job events arrive on /api/events while a job runs', async () => {
  setControl({ lines: 20 });
  const controller = new AbortController();
  const res = await c.api('/api/events', { signal: controller.signal });
  assert.is(res.status, 200);
  const reader = res.body!.getReader();
  let text = '';
  const decoder = new TextDecoder();
  const job = await submitted(c, { kind: 'doctor' });
  const statuses = new Set<string>();
  await until('the end event', async () => {
    const { value, done } = await reader.read();
    if (done) throw new Error('the event stream ended');
    text += decoder.decode(value, { stream: true });
    for (const frame of text.split('\n\n')) {
      const m = /^event: job\ndata: (.*)$/m.exec(frame);
      if (!m) continue;
      const e = v.parse(JobSchema, JSON.parse(m[1]!));
      if (e.id === job.id) statuses.add(e.status);
    }
    return statuses.has('succeeded');
  });
  controller.abort();
  holds([...statuses], 'running');
  setControl({});
});

jobs('a read-only console refuses jobs with 403 and writes nothing', async () => {
  const h = copyHome();
  cleanups.push(h.cleanup);
  const ro = await launch({ dataDir: h.dir, args: ['--read-only', '--engine', FAKE], env: { FAKE_ENGINE_RECORD: record } });
  try {
    const runs = recorded().length;
    const res = await post(ro, { kind: 'doctor' });
    assert.is(res.status, 403);
    assert.equal((await list(ro)).length, 0);
    assert.not.ok(existsSync(join(h.dir, 'console')));
    assert.is(recorded().length, runs);
  } finally {
    await ro.stop();
  }
});

jobs('a restart keeps the history; a console killed mid-job leaves valid records and a readable log, and the job is failed', async () => {
  const h = copyHome();
  cleanups.push(h.cleanup);
  const dir = realpathSync(h.dir);
  const pidfile = join(scratch, 'mid.pid');
  const env = { FAKE_ENGINE_RECORD: record, FAKE_ENGINE_CONTROL: join(scratch, 'mid.json') };
  writeFileSync(env.FAKE_ENGINE_CONTROL, JSON.stringify({ lines: 50, wait_for: join(scratch, 'never'), pidfile }));
  const first = await launch({ dataDir: dir, args: ['--engine', FAKE], env });
  const done = await submitted(first, { kind: 'learn', domain: 'kept', sessions: 'logs/shop' });
  const running = await submitted(first, { kind: 'doctor' });
  void done;
  const pid = await until('the CLI to start', () => pidIn(pidfile));
  // The first job waits too (same control): cancel it, so the second one runs when the console dies.
  await until('the doctor job to run', async () => {
    const jobs = await list(first);
    const learn = jobs.find((j) => j.id === done.id)!;
    if (learn.status === 'running') await first.api(`/api/jobs/${done.id}/cancel`, { method: 'POST' });
    return jobs.find((j) => j.id === running.id)!.status === 'running' && (await one(first, running.id)).output.includes('line 50');
  });
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  try {
    process.kill(-Number(readFileSync(pidfile, 'utf8')), 'SIGKILL');
  } catch {
    // gone already
  }
  void pid;
  for (const name of readdirSync(join(dir, 'console/jobs'))) {
    if (name.endsWith('.json')) v.parse(JobSchema, JSON.parse(readFileSync(join(dir, 'console/jobs', name), 'utf8')));
  }
  startsWith(readFileSync(join(dir, 'console/jobs', `${running.id}.log`), 'utf8'), `$ engine doctor --data ${dir}\n`);

  cpSync(join(dir, 'console'), join(scratch, 'console-before'), { recursive: true });
  const runs = recorded().length;
  const second = await launch({ dataDir: dir, args: ['--engine', FAKE], env });
  try {
    const items = await list(second);
    assert.equal(items.map((j) => j.id), [running.id, done.id]);
    const failed = await one(second, running.id);
    assert.is(failed.status, 'failed');
    assert.ok(failed.finished_unix_ms !== null);
    endsWith(failed.output, 'engine-console: the console stopped before this job finished\n');
    assert.match(failed.output, 'line 50');
    assert.is((await one(second, done.id)).status, 'cancelled');
    await new Promise((r) => setTimeout(r, 200));
    assert.is(recorded().length, runs, 'nothing is re-run');
  } finally {
    await second.stop();
  }
});

jobs('stopping the console kills a running CLI with its tree; the next start fails the job', async () => {
  const h = copyHome();
  cleanups.push(h.cleanup);
  const dir = realpathSync(h.dir);
  const grandchild = join(scratch, 'stop-grand.pid');
  const pidfile = join(scratch, 'stop-child.pid');
  const env = { FAKE_ENGINE_CONTROL: join(scratch, 'stop.json') };
  writeFileSync(env.FAKE_ENGINE_CONTROL, JSON.stringify({ wait_for: join(scratch, 'never'), grandchild, pidfile }));
  const first = await launch({ dataDir: dir, args: ['--engine', FAKE], env });
  const job = await submitted(first, { kind: 'doctor' });
  const gpid = await until('the grandchild', () => pidIn(grandchild));
  const cpid = (await until('the CLI', () => pidIn(pidfile)));
  assert.is(await first.stop(), 0);
  await until('the CLI and its grandchild to be gone', () => !alive(cpid) && !alive(gpid)).catch((err: Error) => {
    // What is left, to tell a kill that missed from a process that lingers (its state, parent and group).
    const stat = (pid: number) => (existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').trim() : 'gone');
    throw new Error(`${err.message}: CLI ${cpid} [${stat(cpid)}], grandchild ${gpid} [${stat(gpid)}]`);
  });
  const second = await launch({ dataDir: dir, args: ['--engine', FAKE], env });
  try {
    const failed = await one(second, job.id);
    assert.is(failed.status, 'failed');
    endsWith(failed.output, 'engine-console: the console stopped before this job finished\n');
  } finally {
    await second.stop();
  }
});

jobs.run();
