import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { FlowDetailSchema, FlowListSchema } from '../../shared/flows.ts';
import { JobSchema, type Job } from '../../shared/jobs.ts';
import { MetaSchema } from '../../shared/meta.ts';
import { OverviewSchema } from '../../shared/overview.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const drift = suite('drift jobs and checks');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');

let c: Launched;
let R = '';
let control = '';
let record = '';
const cleanups: (() => void)[] = [];

/** A report as drift.rs serializes it: 14 sessions, one alarm whose change began at session 9. */
const SOUNDING = {
  domain: 'shop',
  decider: 'habit',
  settings: { hazard: 0.01, window: 10, threshold: 0.5 },
  sessions: Array.from({ length: 14 }, (_, i) => ({ id: `s${i}`, decisions: 3, surprise: 0.2, disagreement: 0, unknown: 0, change: 0 })),
  alarms: [
    {
      at: 13,
      change: 9,
      probability: 0.83,
      moved: [
        { site: 'after get_order_details', before: null, after: { decisions: 4, agreement: 0.5, surprise: 1.1 } },
        { site: 'after find_user_id_by_email', before: { decisions: 9, agreement: 1, surprise: 0.1 }, after: { decisions: 5, agreement: 0.4, surprise: 1.4 } },
        { site: 'after cancel_pending_order', before: { decisions: 9, agreement: 1, surprise: 0.1 }, after: { decisions: 5, agreement: 0.8, surprise: 0.3 } },
        { site: 'after list_orders', before: { decisions: 9, agreement: 1, surprise: 0.1 }, after: { decisions: 5, agreement: 1, surprise: 0.1 } },
      ],
    },
  ],
  sounding: true,
  unknown_tools: { refund_order: 10, escalate: 11 },
};

function runs(): string[][] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { argv: string[] }).argv);
}

async function post(l: Launched, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await l.api(path, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function ended(l: Launched, id: string): Promise<Job> {
  for (;;) {
    const job = v.parse(JobSchema, await (await l.api(`/api/jobs/${id}`)).json());
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function runDrift(body: Record<string, unknown>): Promise<Job> {
  const res = await post(c, '/api/jobs', { kind: 'drift', flow: 'shop', sessions: 'logs/shop', ...body });
  assert.is(res.status, 202, JSON.stringify(res.body));
  return ended(c, v.parse(JobSchema, res.body).id);
}

drift.before(async () => {
  const h = copyHome();
  const t = tempDir('engine-http-drift-');
  cleanups.push(h.cleanup, t.cleanup);
  R = realpathSync(h.dir);
  control = join(realpathSync(t.dir), 'control.json');
  record = join(realpathSync(t.dir), 'record.jsonl');
  writeFileSync(control, '{}');
  c = await launch({ dataDir: R, args: ['--engine', FAKE], env: { FAKE_ENGINE_RECORD: record, FAKE_ENGINE_CONTROL: control } });
});
drift.after(async () => {
  await c?.stop();
  cleanups.forEach((f) => f());
});

drift('an engine with drift: the kind is offered in meta and the preview is the argv the original console runs', async () => {
  const meta = v.parse(MetaSchema, await (await c.api('/api/meta')).json());
  assert.ok(meta.job_kinds.includes('drift'), JSON.stringify(meta.job_kinds));
  const res = await post(c, '/api/jobs/preview', { kind: 'drift', flow: 'shop', sessions: 'logs/shop' });
  const preview = res.body as { ok: true; id: string; argv: string[]; params: unknown; defaults: string[]; title: string };
  assert.is(preview.ok, true, JSON.stringify(res.body));
  const reports = join(R, 'console', 'jobs', preview.id);
  assert.equal(preview.argv, [
    'drift', '--flow', join(R, 'shop.flow.json'), '--sessions', join(R, 'logs/shop'), '--oracle', 'replay',
    '--oracle-cache', join(R, 'oracle-cache'), '--window', '10', '--threshold', '0.5',
    '--out', `${reports}.drift.md`, '--json', `${reports}.drift.json`,
  ]);
  assert.equal(preview.params, { decider: null, flow: 'shop', kind: 'drift', sessions: 'logs/shop', threshold: 0.5, window: 10 });
  assert.equal(preview.defaults, ['decider', 'threshold', 'window']);
  assert.is(preview.title, 'Drift of shop on logs/shop');
  const given = await post(c, '/api/jobs/preview', { kind: 'drift', flow: 'shop', sessions: 'logs/shop', decider: 'reach', window: 20, threshold: 0.8 });
  const argv = (given.body as { argv: string[] }).argv;
  assert.equal(argv.slice(9, 13), ['--window', '20', '--threshold', '0.8']);
  assert.equal(argv.slice(-2), ['--decider', 'reach']);
});

drift('drift refuses a window under 3 and a threshold outside (0, 1], as the original does', async () => {
  const before = runs().length;
  const small = await post(c, '/api/jobs', { kind: 'drift', flow: 'shop', sessions: 'logs/shop', window: 2 });
  assert.equal(small, { status: 400, body: { error: 'window 2: at least 3 sessions, as a change needs three of the new run' } });
  const zero = await post(c, '/api/jobs', { kind: 'drift', flow: 'shop', sessions: 'logs/shop', threshold: 0 });
  assert.equal(zero, { status: 400, body: { error: 'threshold 0: a probability above 0 and at most 1' } });
  const nope = await post(c, '/api/jobs', { kind: 'drift', flow: 'nope', sessions: 'logs/shop' });
  assert.equal(nope, { status: 400, body: { error: 'no flow "nope"' } });
  assert.is(runs().length, before, 'nothing ran');
});

drift('a quiet check succeeds without alarm; the flow, the list and the overview show it quiet', async () => {
  writeFileSync(control, '{}');
  const job = await runDrift({});
  assert.is(job.status, 'succeeded');
  assert.is(job.exit_code, 0);
  assert.is(job.alarm, false);
  const flow = v.parse(FlowDetailSchema, await (await c.api('/api/flows/shop')).json());
  assert.is(flow.summary.drift?.job, job.id);
  assert.is(flow.summary.drift?.alarm, false);
  assert.is(flow.summary.drift?.sessions, 0);
  const o = v.parse(OverviewSchema, await (await c.api('/api/overview')).json());
  const line = o.drift.find((d) => d.flow === 'shop');
  assert.equal(line, { flow: 'shop', path: 'shop.flow.json', state: 'quiet', checked_unix_ms: job.finished_unix_ms, job: job.id });
  assert.is(o.drift.find((d) => d.flow === 'shop.promoted')?.state, 'never');
});

drift('exit 1 is the alarm: the job succeeds with alarm true, and the check names the change, its sites and new tools', async () => {
  writeFileSync(control, JSON.stringify({ drift: { exit: 1, report: SOUNDING } }));
  const job = await runDrift({});
  assert.is(job.status, 'succeeded');
  assert.is(job.exit_code, 1);
  assert.is(job.alarm, true);
  const list = v.parse(FlowListSchema, await (await c.api('/api/flows')).json());
  const check = list.items.find((f) => f.key === 'shop')?.drift;
  assert.equal(check, {
    job: job.id,
    finished_unix_ms: job.finished_unix_ms!,
    alarm: true,
    sessions: 14,
    since: 5,
    probability: 0.83,
    sites: ['after get_order_details', 'after find_user_id_by_email', 'after cancel_pending_order'],
    unknown_tools: ['escalate', 'refund_order'],
    report: 1,
  });
  assert.is(list.items.find((f) => f.key === 'shop.promoted')?.drift, undefined);
  const o = v.parse(OverviewSchema, await (await c.api('/api/overview')).json());
  assert.is(o.drift.find((d) => d.flow === 'shop')?.state, 'alarm');
  // Another exit is still a failure, and a failed check is not the flow's last check.
  writeFileSync(control, JSON.stringify({ drift: { exit: 2 } }));
  const failed = await runDrift({});
  assert.is(failed.status, 'failed');
  assert.is(failed.alarm, false);
  const after = v.parse(FlowDetailSchema, await (await c.api('/api/flows/shop')).json());
  assert.is(after.summary.drift?.job, job.id);
});

drift('an engine without drift: not offered in meta, and a drift request is 400 naming why', async () => {
  const old = await launch({ dataDir: R, args: ['--engine', FAKE, '--read-only'], env: { FAKE_ENGINE_NO_DRIFT: '1' } });
  try {
    const meta = v.parse(MetaSchema, await (await old.api('/api/meta')).json());
    assert.not.ok(meta.job_kinds.includes('drift'));
    assert.ok(meta.job_kinds.includes('audit'));
    const res = await post(old, '/api/jobs/preview', { kind: 'drift', flow: 'shop', sessions: 'logs/shop' });
    assert.equal(res.body, {
      ok: false,
      status: 400,
      error: `drift is not offered: engine drift --help exited with 2: the engine at ${FAKE} has no drift command; install an engine that has it`,
    });
  } finally {
    await old.stop();
  }
});

drift.run();
