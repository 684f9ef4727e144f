// Property: for any job request of any kind and any combination of its options, the preview (the planner
// without writes) refuses exactly as the job does, or shows the argv the runner then spawns, byte for byte,
// and the `$` line its output starts with.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Job, JobRequest } from '../../shared/jobs.ts';
import { buildCatalog } from '../../server/data/catalog.ts';
import { shellJoin } from '../../server/engine/shell.ts';
import { planJob, PlanError, type Plan, type PlanContext } from '../../server/jobs/plan.ts';
import { EngineCommands } from '../../server/jobs/commands.ts';
import { JobRunner } from '../../server/jobs/runner.ts';
import { copyHome, repoRoot, tempDir } from '../support/fixtures.ts';
import { check } from './check.ts';

const props = suite('props: job preview');
const FAKE = join(repoRoot, 'spec/support/fake-engine.mjs');
let R = '';
let record = '';
let runner: JobRunner;
// The real probe, asking the fake CLI `drift --help`.
const commands = new EngineCommands({ path: FAKE });
const cleanups: (() => void)[] = [];
const savedEnv = { ...process.env };

function context(dryRun: boolean): PlanContext {
  const catalog = buildCatalog(R);
  return { dataDir: R, home: null, keySet: true, redactSaltSet: true, flow: (k) => catalog.flow(k), flowDomain: async () => 'shop', offer: (c) => commands.offer(c), dryRun };
}

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const sessions = fc.constantFrom('logs/shop', 'shadow/shop', 'logs', './logs/shop/', 'logs/none');
const flow = fc.constantFrom('shop', 'shop.promoted', 'nope');
const decider = maybe(fc.constantFrom('arbiter' as const, 'habit' as const, 'reach' as const));
const prob = maybe(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.1, 1.5, -0.2)));
const count = maybe(fc.nat({ max: 60 }));
const out = (suffix: string) => maybe(fc.constantFrom(`out/a${suffix}`, `out/b c${suffix}`, `--x${suffix}`, `out/it's${suffix}`));

const request: fc.Arbitrary<JobRequest> = fc.oneof(
  fc.record({
    kind: fc.constant('learn' as const),
    domain: fc.constantFrom('notes', 'a.b', 'x_1', '-bad'),
    sessions,
    out: out('.flow.json'),
    overwrite: maybe(fc.boolean()),
    habit_only: maybe(fc.boolean()),
    constants: maybe(fc.boolean()),
  }),
  fc.record({
    kind: fc.constant('promote' as const),
    flow,
    sessions,
    oracle_cache: maybe(fc.constantFrom('cache', 'oracle-cache', '~x')),
    threshold: prob,
    min_used: prob,
    min_lower: prob,
    min_tasks: count,
    out: out('.flow.json'),
    overwrite: maybe(fc.boolean()),
  }),
  fc.record({ kind: fc.constant('audit' as const), flow, sessions, decider }),
  fc.record({
    kind: fc.constant('stage' as const),
    flow,
    sessions,
    window: count,
    decider,
    half_life: maybe(fc.oneof(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.constantFrom(0, -1))),
    constants: maybe(fc.boolean()),
  }),
  fc.record({ kind: fc.constant('drift' as const), flow, sessions, decider, window: count, threshold: prob }),
  fc.record({
    kind: fc.constant('redact' as const),
    sessions,
    out: fc.constantFrom('redacted/x', 'logs/shop/r', '--r'),
    keep_shared: count,
    hash_fields: maybe(fc.array(fc.constantFrom('email', 'a,b', ' c ', '-x', 'has space', ''), { maxLength: 3 })),
  }),
  fc.constant({ kind: 'doctor' as const }),
);

type Planned = { ok: true; plan: Plan } | { ok: false; status: number; message: string };
async function planned(body: JobRequest, id: string, dryRun: boolean): Promise<Planned> {
  try {
    return { ok: true, plan: await planJob(body, id, context(dryRun)) };
  } catch (err) {
    if (err instanceof PlanError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}

function lastArgv(): string[] {
  const lines = existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : [];
  return (JSON.parse(lines.at(-1) ?? '{"argv":[]}') as { argv: string[] }).argv;
}

async function ended(id: string): Promise<Job> {
  for (;;) {
    const job = await runner.get(id);
    if (job && ['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
}

props.before(async () => {
  const h = copyHome();
  const t = tempDir('engine-props-preview-');
  cleanups.push(h.cleanup, t.cleanup);
  R = realpathSync(h.dir);
  record = join(realpathSync(t.dir), 'record.jsonl');
  process.env.FAKE_ENGINE_RECORD = record;
  runner = await JobRunner.open({
    dataDir: R,
    home: null,
    readOnly: false,
    engine: { path: FAKE },
    now: () => Date.now(),
    publish: () => {},
    flowKeyAt: async () => null,
  });
});
props.after(async () => {
  await runner.stop();
  process.env = savedEnv;
  cleanups.forEach((f) => f());
});

props('the preview of any request is the argv its job runs, or the same refusal', async () => {
  await check(
    fc.asyncProperty(request, async (body) => {
      const id = runner.newId();
      const preview = await planned(body, id, true);
      const real = await planned(body, id, false);
      if (!preview.ok || !real.ok) {
        assert.equal(preview, real);
        return;
      }
      assert.equal(preview.plan.argv, real.plan.argv);
      for (const [i, word] of preview.plan.argv.entries()) {
        if (word.startsWith('-')) assert.match(word, /^--[a-z-]+$/, `word ${i} reads as an option`);
      }
      runner.submit(id, real.plan);
      const job = await ended(id);
      assert.equal(lastArgv(), preview.plan.argv);
      assert.is(job.output.split('\n')[0], `$ engine ${shellJoin(preview.plan.argv)}`);
    }),
    40,
  );
});

props.run();
