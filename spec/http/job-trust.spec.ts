// What a job shows is what it runs and what it wrote: the preview is the argv that runs (and writes
// nothing), no request value reaches the CLI as an option, a file a job writes over goes to the trash first
// (and back when nothing took its place), and a job lists only the files it created or changed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobPlanPreviewSchema, JobSchema, type Job, type JobPlanPreview } from '../../shared/jobs.ts';
import { TrashListSchema } from '../../shared/trash.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';
import { startsWith } from '../support/assert.ts';

const trust = suite('job trust');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');

let c: Launched;
let R = '';
let scratch = '';
let control = '';
let record = '';
const cleanups: (() => void)[] = [];

function recorded(): { argv: string[] }[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { argv: string[] });
}
const setControl = (ctl: Record<string, unknown>) => writeFileSync(control, JSON.stringify(ctl));

async function until<T>(what: string, f: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await f();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await c.api(path, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function one(id: string): Promise<Job> {
  const res = await c.api(`/api/jobs/${id}`);
  assert.is(res.status, 200);
  return v.parse(JobSchema, await res.json());
}

const ended = (id: string) =>
  until(`job ${id} to end`, async () => {
    const job = await one(id);
    return ['succeeded', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
  });

async function submit(body: unknown): Promise<Job> {
  const res = await post('/api/jobs', body);
  assert.is(res.status, 202, JSON.stringify(res.body));
  return v.parse(JobSchema, res.body);
}

async function preview(body: unknown): Promise<JobPlanPreview> {
  const res = await post('/api/jobs/preview', body);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return v.parse(JobPlanPreviewSchema, res.body);
}

async function refusal(body: unknown): Promise<{ status: number; error: string }> {
  const runs = recorded().length;
  const res = await post('/api/jobs', body);
  const pre = await post('/api/jobs/preview', body);
  const error = (res.body as { error: string }).error;
  assert.equal(pre, { status: 200, body: { ok: false, status: res.status, error } }, 'the preview says the refusal the job gets');
  assert.is(recorded().length, runs, 'nothing ran');
  return { status: res.status, error: (res.body as { error: string }).error };
}

trust.before(async () => {
  const h = copyHome();
  const t = tempDir('engine-job-trust-');
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
trust.after(async () => {
  await c?.stop();
  cleanups.forEach((f) => f());
});

trust('the preview is the argv that runs, byte for byte, and says which parameters are defaults', async () => {
  const body = { kind: 'promote', flow: 'shop', sessions: 'shadow/shop', oracle_cache: null, out: 'previewed/p.flow.json' };
  const shown = await preview(body);
  assert.ok(!existsSync(join(R, 'previewed')), 'a preview writes nothing, not even the output directory');
  assert.equal(shown.argv, [
    'promote', '--flow', `${R}/shop.flow.json`, '--sessions', `${R}/shadow/shop`, '--oracle-cache', `${R}/oracle-cache`,
    '--threshold', '0.3', '--min-used', '0.7', '--min-lower', '0.5', '--min-tasks', '3',
    '--out', `${R}/previewed/p.flow.json`, '--report', `${R}/console/jobs/${shown.id}.promote.md`,
  ]);
  assert.equal(shown.defaults, ['min_lower', 'min_tasks', 'min_used', 'oracle_cache', 'overwrite', 'threshold']);
  const job = await submit({ ...body, id: shown.id });
  assert.is(job.id, shown.id);
  assert.equal(job.defaults, shown.defaults);
  const done = await ended(job.id);
  assert.equal(recorded().at(-1)!.argv, shown.argv);
  startsWith(done.output, `$ ${shown.command}\n`);
  // The id is used now: a second job cannot take it.
  const again = await post('/api/jobs', { ...body, out: 'previewed/q.flow.json', id: shown.id });
  assert.is(again.status, 409);
  assert.is((await post('/api/jobs', { ...body, id: 'not-an-id' })).status, 400);
});

trust('option-like values never reach the CLI as options, for every kind', async () => {
  const hostile = '--out=elsewhere';
  const fields = await refusal({ kind: 'redact', sessions: 'logs/shop', out: 'redacted/x', hash_fields: [hostile, '--sessions=other'] });
  assert.equal(fields, { status: 400, error: 'hash_fields: "--out=elsewhere" starts with -, which the CLI would read as an option: give a value that does not' });
  assert.is((await refusal({ kind: 'redact', sessions: 'logs/shop', out: 'redacted/x', hash_fields: ['a,-b'] })).status, 400);
  assert.is((await refusal({ kind: 'learn', domain: hostile, sessions: 'logs/shop' })).status, 400);
  assert.is((await refusal({ kind: 'learn', domain: '-x', sessions: 'logs/shop' })).status, 400);
  // A flow whose own domain reads as an option cannot become stage's --domain.
  const flow = JSON.parse(readFileSync(join(R, 'shop.flow.json'), 'utf8')) as { manifest: { domain: string } };
  writeFileSync(join(R, 'odd.flow.json'), JSON.stringify({ ...flow, manifest: { ...flow.manifest, domain: hostile } }));
  await until('the odd flow in the catalog', async () => (await c.api('/api/flows/odd')).status === 200);
  const stage = await refusal({ kind: 'stage', flow: 'odd', sessions: 'logs/shop' });
  assert.is(stage.status, 400, stage.error);
  startsWith(stage.error, 'flow: "--out=elsewhere" starts with -');
  // Paths that look like options are paths: they reach the CLI whole, inside the data directory.
  mkdirSync(join(R, hostile), { recursive: true });
  const asPaths = [
    { kind: 'learn', domain: 'opt', sessions: hostile, out: '--habit-only.flow.json' },
    { kind: 'promote', flow: 'shop', sessions: hostile, oracle_cache: '--oracle', out: '--x.flow.json' },
    { kind: 'audit', flow: 'shop', sessions: hostile },
    { kind: 'stage', flow: 'shop', sessions: hostile },
    { kind: 'redact', sessions: hostile, out: '--redacted' },
  ];
  for (const body of asPaths) {
    const shown = await preview(body);
    for (const word of shown.argv.filter((w) => w.startsWith('-'))) assert.match(word, /^--[a-z-]+$/, `${body.kind}: ${word}`);
    assert.ok(shown.argv.includes(`${R}/${hostile}`), body.kind);
  }
});

trust('a file a promote writes over goes to the trash first, and the job says where', async () => {
  const target = join(R, 'shop.promoted.flow.json');
  const old = readFileSync(target, 'utf8');
  const job = await submit({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', overwrite: true });
  const done = await ended(job.id);
  assert.is(done.status, 'succeeded');
  assert.is(done.replaced.length, 1);
  const replaced = done.replaced[0]!;
  assert.is(replaced.path, 'shop.promoted.flow.json');
  assert.is(readFileSync(join(R, 'console/trash', replaced.trash_id, 'shop.promoted.flow.json'), 'utf8'), old, 'the old bytes are in the trash');
  assert.is.not(readFileSync(target, 'utf8'), old, 'the job wrote the new flow');
  assert.match(done.output, `engine-console: moved the old shop.promoted.flow.json to the trash (console/trash/${replaced.trash_id}/shop.promoted.flow.json)`);
  const trash = v.parse(TrashListSchema, await (await c.api('/api/trash')).json());
  const entry = trash.items.find((e) => e.id === replaced.trash_id);
  assert.equal(entry?.files.map((f) => [f.path, f.taken]), [['shop.promoted.flow.json', true]]);
  // Once the new flow is deleted too, the trash can restore the old one.
  assert.is((await c.api('/api/flows/shop.promoted', { method: 'DELETE' })).status, 200);
  assert.is((await c.api(`/api/trash/${replaced.trash_id}/restore`, { method: 'POST' })).status, 200);
  assert.is(readFileSync(target, 'utf8'), old);
});

trust('a replacing job that fails or is cancelled having written nothing puts the old file back', async () => {
  const target = join(R, 'shop.promoted.flow.json');
  const old = readFileSync(target, 'utf8');
  const trashBefore = readdirSync(join(R, 'console/trash')).sort();

  setControl({ write: 'none', exit: 3 });
  const failed = await ended((await submit({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', overwrite: true })).id);
  assert.is(failed.status, 'failed');
  assert.equal(failed.replaced, []);
  assert.equal(failed.artifacts, []);
  assert.is(readFileSync(target, 'utf8'), old, 'the old file is back');
  assert.match(failed.output, 'engine-console: nothing was written over shop.promoted.flow.json, so the old file is back from the trash');

  const gate = join(scratch, 'never');
  setControl({ write: 'after', wait_for: gate });
  const job = await submit({ kind: 'learn', domain: 'shop.promoted', sessions: 'logs/shop', overwrite: true });
  await until('the old file set aside', () => !existsSync(target));
  assert.is((await c.api(`/api/jobs/${job.id}/cancel`, { method: 'POST' })).status, 200);
  const cancelled = await ended(job.id);
  assert.is(cancelled.status, 'cancelled');
  assert.equal(cancelled.replaced, []);
  assert.equal(cancelled.artifacts, []);
  assert.is(readFileSync(target, 'utf8'), old);
  assert.equal(readdirSync(join(R, 'console/trash')).sort(), trashBefore, 'no empty trash folder is left behind');
  setControl({});
});

trust('overwriting is refused where the trash cannot keep the old file, and over the flow being promoted', async () => {
  const refusedOver = await refusal({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', out: 'shop.flow.json', overwrite: true });
  assert.equal(refusedOver, { status: 400, error: 'out: the promoted flow goes to a file of its own, not over the flow it is promoted from' });
  mkdirSync(join(R, 'adir.flow.json'));
  assert.equal(await refusal({ kind: 'learn', domain: 'z', sessions: 'logs/shop', out: 'adir.flow.json', overwrite: true }), {
    status: 400,
    error: 'out: adir.flow.json is a directory: name a file',
  });
});

trust('a job lists only the files it created or changed while it ran', async () => {
  const staged = join(R, 'shop.staged.flow.json');
  writeFileSync(staged, readFileSync(join(R, 'shop.promoted.flow.json')));

  setControl({ write: 'none', exit: 1 });
  const failed = await ended((await submit({ kind: 'stage', flow: 'shop', sessions: 'logs/shop' })).id);
  assert.is(failed.status, 'failed');
  assert.equal(failed.artifacts, [], 'a staged flow written before the job is not its artifact');
  assert.equal(failed.replaced, [], 'the staged flow was left as it was: its copy in the trash is dropped');

  const gate = join(scratch, 'gate-stage');
  setControl({ write: 'after', wait_for: gate });
  const running = await submit({ kind: 'stage', flow: 'shop', sessions: 'logs/shop' });
  await until('the stage job to run', async () => (await one(running.id)).status === 'running' && recorded().length > 0);
  assert.is((await c.api(`/api/jobs/${running.id}/cancel`, { method: 'POST' })).status, 200);
  assert.equal((await ended(running.id)).artifacts, []);

  setControl({ exit: 1 });
  const wrote = await ended((await submit({ kind: 'stage', flow: 'shop', sessions: 'logs/shop' })).id);
  assert.is(wrote.status, 'failed');
  assert.equal(wrote.artifacts.map((a) => a.path), ['shop.staged.flow.json', `console/jobs/${wrote.id}.stage.md`, `console/jobs/${wrote.id}.stage.json`], 'a failed job that wrote lists what it wrote');
  // stage rewrites the staged flow it also reads: the one it replaced was copied to the trash first.
  assert.equal(wrote.replaced.map((r) => r.path), ['shop.staged.flow.json']);
  const kept = readFileSync(join(R, 'console/trash', wrote.replaced[0]!.trash_id, 'shop.staged.flow.json'), 'utf8');
  assert.is(kept, readFileSync(join(R, 'shop.promoted.flow.json'), 'utf8'), 'the trash holds the staged flow as it was');

  setControl({ write: 'none' });
  const nothing = await ended((await submit({ kind: 'redact', sessions: 'logs/shop', out: 'redacted/shop' })).id);
  assert.is(nothing.status, 'succeeded');
  assert.equal(nothing.artifacts, [], 'a directory that does not exist is not listed');
  setControl({});
});

trust('a read-only console previews a job (it writes nothing) but refuses to start it', async () => {
  const ro = await launch({ args: ['--read-only', '--engine', FAKE] });
  try {
    const body = JSON.stringify({ kind: 'doctor' });
    const pre = await ro.api('/api/jobs/preview', { method: 'POST', body });
    assert.is(pre.status, 200);
    assert.equal(v.parse(JobPlanPreviewSchema, await pre.json()).argv, ['doctor', '--data', realpathSync(ro.dataDir)]);
    assert.is((await ro.api('/api/jobs', { method: 'POST', body })).status, 403);
    const unsigned = await fetch(`${ro.url}/api/jobs/preview`, { method: 'POST', body, headers: { Authorization: 'Bearer test-token' } });
    assert.is(unsigned.status, 403, 'it still needs X-Engine-Console');
  } finally {
    await ro.stop();
  }
});

trust.run();
