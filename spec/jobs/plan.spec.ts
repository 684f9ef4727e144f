import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { JobRequestSchema, type JobRequest } from '../../shared/jobs.ts';
import { buildCatalog } from '../../server/data/catalog.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { jobId, planJob, PlanError, type PlanContext } from '../../server/jobs/plan.ts';
import { copyHome, tempDir } from '../support/fixtures.ts';
import { lacks, startsWith } from '../support/assert.ts';

const plan = suite('plan');
const ID = '20260928T034808.428Z-1ec2';

let R = '';
let home = '';
const cleanups: (() => void)[] = [];

function context(over: Partial<PlanContext> = {}): PlanContext {
  const catalog = buildCatalog(R);
  return {
    dataDir: R,
    home,
    keySet: false,
    redactSaltSet: false,
    flow: (key) => catalog.flow(key),
    flowDomain: async (path) => loadFlow(readFileSync(path, 'utf8')).domain,
    offer: async () => ({ offered: true, why: 'engine drift --help answered' }),
    ...over,
  };
}

function request(body: unknown): JobRequest {
  return v.parse(JobRequestSchema, body);
}

async function refusal(body: unknown, over: Partial<PlanContext> = {}): Promise<{ status: number; message: string }> {
  try {
    await planJob(request(body), ID, context(over));
  } catch (err) {
    if (err instanceof PlanError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('the plan was not refused');
}

plan.before(() => {
  const h = copyHome();
  const t = tempDir('engine-home-dir-');
  cleanups.push(h.cleanup, t.cleanup);
  R = realpathSync(h.dir);
  home = realpathSync(t.dir);
});
plan.after(() => cleanups.forEach((c) => c()));

plan('a job id is the creation time in the compact UTC form, a dash and four hex digits', () => {
  assert.is(jobId(Date.UTC(2026, 8, 28, 3, 48, 8, 428), '1ec2'), ID);
});

plan('learn with its defaults runs habit-only into <domain>.flow.json', async () => {
  const p = await planJob(request({ kind: 'learn', domain: 'notes', sessions: 'logs/shop' }), ID, context());
  assert.equal(p.argv, ['learn', '--sessions', `${R}/logs/shop`, '--domain', 'notes', '--out', `${R}/notes.flow.json`, '--habit-only']);
  assert.is(p.title, 'Learn notes from logs/shop');
  assert.equal(p.params, { constants: false, domain: 'notes', habit_only: true, kind: 'learn', out: 'notes.flow.json', overwrite: false, sessions: 'logs/shop' });
  assert.equal(Object.keys(p.params), ['constants', 'domain', 'habit_only', 'kind', 'out', 'overwrite', 'sessions']);
  assert.equal(p.artifacts, [{ kind: 'flow', path: `${R}/notes.flow.json` }]);
});

plan('learn fits an arbiter only when habit_only is false and a key is set', async () => {
  const p = await planJob(
    request({ kind: 'learn', domain: 'shop', sessions: `${R}/logs/shop`, out: 'out/x.flow.json', habit_only: false, constants: true }),
    ID,
    context({ keySet: true }),
  );
  assert.equal(p.argv, [
    'learn', '--sessions', `${R}/logs/shop`, '--domain', 'shop', '--out', `${R}/out/x.flow.json`,
    '--oracle-cache', `${R}/oracle-cache`, '--constants',
  ]);
  assert.ok(existsSync(join(R, 'out')), 'fresh() creates the parent directory');
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: 'logs/shop', out: 'y.flow.json', habit_only: false }), {
    status: 400,
    message:
      "fitting an arbiter asks TypeSafe's Jev, and neither TYPESAFE_API_KEY nor TYPESAFE_API_KEY_FILE is set in the console's environment: learn with habit_only",
  });
});

plan('learn refuses a bad domain, a missing directory and a path outside the data directory', async () => {
  assert.equal(await refusal({ kind: 'learn', domain: '-x', sessions: 'logs/shop' }), {
    status: 400,
    message: '--domain "-x": the domain names the server, a directory and a flow\'s file, so use letters, digits, `-`, `_` and `.`',
  });
  assert.equal(await refusal({ kind: 'learn', domain: 'a b', sessions: 'logs/shop' }).then((r) => r.status), 400);
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: 'logs/nope' }), {
    status: 400,
    message: 'sessions: logs/nope is not a directory',
  });
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: 'shop.flow.json' }), {
    status: 400,
    message: 'sessions: shop.flow.json is not a directory',
  });
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: '/etc' }), {
    status: 400,
    message: `sessions: /etc is outside the data directory (${R}): name a path inside it, or one that starts with ~/`,
  });
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: '../x' }), {
    status: 400,
    message: `sessions: ../x: .. climbs out of ${R}`,
  });
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: 'logs/shop', out: '' }), {
    status: 400,
    message: 'out: the path is empty',
  });
});

plan('learn never writes over a file unless overwrite is set', async () => {
  assert.equal(await refusal({ kind: 'learn', domain: 'shop', sessions: 'logs/shop' }), {
    status: 409,
    message: 'shop.flow.json exists: choose another path, or overwrite it',
  });
  const p = await planJob(request({ kind: 'learn', domain: 'shop', sessions: 'logs/shop', overwrite: true }), ID, context());
  assert.is(p.params.overwrite, true);
});

plan('learn resolves ~/ paths in the home directory and shows them as ~/', async () => {
  mkdirSync(join(home, 'recorded'), { recursive: true });
  const p = await planJob(request({ kind: 'learn', domain: 'shop', sessions: '~/recorded', out: '~/out.flow.json' }), ID, context());
  assert.equal(p.argv.slice(0, 7), ['learn', '--sessions', `${home}/recorded`, '--domain', 'shop', '--out', `${home}/out.flow.json`]);
  assert.is(p.title, 'Learn shop from ~/recorded');
  assert.is(p.params.out, '~/out.flow.json');
});

plan('promote fills its defaults and writes <name>.promoted.flow.json beside the flow', async () => {
  const refused = await refusal({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop' });
  assert.equal(refused, { status: 409, message: 'shop.promoted.flow.json exists: choose another path, or overwrite it' });
  const p = await planJob(request({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', overwrite: true }), ID, context());
  assert.equal(p.argv, [
    'promote', '--flow', `${R}/shop.flow.json`, '--sessions', `${R}/shadow/shop`, '--oracle-cache', `${R}/oracle-cache`,
    '--threshold', '0.3', '--min-used', '0.7', '--min-lower', '0.5', '--min-tasks', '3',
    '--out', `${R}/shop.promoted.flow.json`, '--report', `${R}/console/jobs/${ID}.promote.md`,
  ]);
  assert.is(p.title, 'Promote shop on shadow/shop');
  assert.equal(p.params, {
    flow: 'shop', kind: 'promote', min_lower: 0.5, min_tasks: 3, min_used: 0.7, oracle_cache: 'oracle-cache',
    out: 'shop.promoted.flow.json', overwrite: true, sessions: 'shadow/shop', threshold: 0.3,
  });
  assert.equal(p.artifacts, [
    { kind: 'flow', path: `${R}/shop.promoted.flow.json` },
    { kind: 'report', path: `${R}/console/jobs/${ID}.promote.md` },
  ]);
});

plan('promote writes its numbers as the CLI reads them and refuses bad ones', async () => {
  const p = await planJob(
    request({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', threshold: 1, min_used: 0.25, min_lower: 0, min_tasks: 7, out: 'p.flow.json', oracle_cache: 'cache' }),
    ID,
    context(),
  );
  assert.equal(p.argv.slice(5, 15), ['--oracle-cache', `${R}/cache`, '--threshold', '1', '--min-used', '0.25', '--min-lower', '0', '--min-tasks', '7']);
  assert.equal(await refusal({ kind: 'promote', flow: 'nope', sessions: 'shadow/shop' }), { status: 400, message: 'no flow "nope"' });
  assert.equal(await refusal({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', threshold: 2, out: 'q.flow.json' }), {
    status: 400,
    message: 'threshold 2: from 0 to 1',
  });
  assert.equal(await refusal({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', min_used: -0.5, out: 'q.flow.json' }), {
    status: 400,
    message: 'min_used -0.5: from 0 to 1',
  });
  assert.equal(await refusal({ kind: 'promote', flow: 'shop', sessions: 'shadow/shop', min_tasks: 0, out: 'q.flow.json' }), {
    status: 400,
    message: 'min_tasks: at least 1',
  });
});

plan('audit writes its JSON and Markdown reports under console/jobs, JSON first', async () => {
  const p = await planJob(request({ kind: 'audit', flow: 'shop.promoted', sessions: 'logs/shop', decider: 'reach' }), ID, context());
  assert.equal(p.argv, [
    'audit', '--flow', `${R}/shop.promoted.flow.json`, '--sessions', `${R}/logs/shop`, '--oracle', 'replay',
    '--oracle-cache', `${R}/oracle-cache`, '--out', `${R}/console/jobs/${ID}.audit.md`, '--json', `${R}/console/jobs/${ID}.audit.json`,
    '--decider', 'reach',
  ]);
  assert.is(p.title, 'Audit shop.promoted on logs/shop');
  assert.equal(p.params, { decider: 'reach', flow: 'shop.promoted', kind: 'audit', sessions: 'logs/shop' });
  assert.equal(p.artifacts.map((a) => a.path), [`${R}/console/jobs/${ID}.audit.json`, `${R}/console/jobs/${ID}.audit.md`]);
  const plain = await planJob(request({ kind: 'audit', flow: 'shop', sessions: 'logs/shop' }), ID, context());
  lacks(plain.argv, '--decider');
  assert.is(plain.params.decider, null);
});

plan('stage learns NAME.staged.flow.json beside the committed flow, in the flow\'s domain', async () => {
  const p = await planJob(request({ kind: 'stage', flow: 'shop', sessions: 'shadow/shop' }), ID, context());
  assert.equal(p.argv, [
    'stage', '--flow', `${R}/shop.flow.json`, '--domain', 'shop', '--sessions', `${R}/shadow/shop`,
    '--oracle-cache', `${R}/oracle-cache`, '--window', '50',
    '--out', `${R}/console/jobs/${ID}.stage.md`, '--json', `${R}/console/jobs/${ID}.stage.json`,
  ]);
  assert.is(p.title, 'Stage shop from shadow/shop');
  assert.equal(p.params, { constants: false, decider: null, flow: 'shop', half_life: null, kind: 'stage', sessions: 'shadow/shop', window: 50 });
  assert.equal(p.artifacts, [
    { kind: 'flow', path: `${R}/shop.staged.flow.json` },
    { kind: 'report', path: `${R}/console/jobs/${ID}.stage.md` },
    { kind: 'report', path: `${R}/console/jobs/${ID}.stage.json` },
  ]);
  const q = await planJob(
    request({ kind: 'stage', flow: 'shop', sessions: 'shadow/shop', window: 10, decider: 'habit', half_life: 20, constants: true }),
    ID,
    context(),
  );
  assert.equal(q.argv.slice(-7), ['--json', `${R}/console/jobs/${ID}.stage.json`, '--decider', 'habit', '--half-life', '20', '--constants']);
});

plan('stage on the staged flow\'s key names the committed flow', async () => {
  copyFileSync(join(R, 'shop.flow.json'), join(R, 'shop.staged.flow.json'));
  const p = await planJob(request({ kind: 'stage', flow: 'shop.staged', sessions: 'shadow/shop' }), ID, context());
  assert.is(p.argv[2], `${R}/shop.flow.json`);
  assert.is(p.title, 'Stage shop from shadow/shop');
  assert.is(p.params.flow, 'shop.staged');
});

plan('stage refuses a flow that does not load (422), a window of 0 and a half-life that is not positive', async () => {
  writeFileSync(join(R, 'broken.flow.json'), '{"engine_flow": 1');
  const broken = await refusal({ kind: 'stage', flow: 'broken', sessions: 'shadow/shop' });
  assert.is(broken.status, 422);
  startsWith(broken.message, 'broken.flow.json does not load: ', broken.message);
  assert.equal(await refusal({ kind: 'stage', flow: 'shop', sessions: 'shadow/shop', window: 0 }), {
    status: 400,
    message: 'window: at least 1 session',
  });
  assert.equal(await refusal({ kind: 'stage', flow: 'shop', sessions: 'shadow/shop', half_life: -1.5 }), {
    status: 400,
    message: 'half_life -1.5: a number of sessions, more than 0',
  });
});

plan('redact needs the salt, a directory of its own, and clean field names', async () => {
  const salt = { redactSaltSet: true };
  assert.equal(await refusal({ kind: 'redact', sessions: 'logs/shop', out: 'redacted' }), {
    status: 400,
    message: "redacting needs a salt: set ENGINE_REDACT_SALT in the console's environment (docs/privacy.md)",
  });
  for (const out of ['logs/shop', 'logs/shop/inner', 'logs']) {
    assert.equal(await refusal({ kind: 'redact', sessions: 'logs/shop', out }, salt), {
      status: 400,
      message: 'out: the redacted copy goes in a directory of its own, apart from the sessions',
    });
  }
  assert.equal(await refusal({ kind: 'redact', sessions: 'logs/shop', out: 'redacted', keep_shared: 0 }, salt), {
    status: 400,
    message: 'keep_shared: at least 1',
  });
  assert.equal(await refusal({ kind: 'redact', sessions: 'logs/shop', out: 'redacted', hash_fields: ['a b'] }, salt), {
    status: 400,
    message: 'hash_fields: field names, without spaces',
  });
  const p = await planJob(
    request({ kind: 'redact', sessions: 'logs/shop', out: 'logs/shop-redacted', hash_fields: ['email, name', ' ', 'id,'] }),
    ID,
    context(salt),
  );
  assert.equal(p.argv, [
    'redact', '--sessions', `${R}/logs/shop`, '--out', `${R}/logs/shop-redacted`, '--keep-shared', '3',
    '--hash-field', 'email', '--hash-field', 'name', '--hash-field', 'id',
  ]);
  assert.is(p.title, 'Redact logs/shop');
  assert.equal(p.params, { hash_fields: ['email', 'name', 'id'], keep_shared: 3, kind: 'redact', out: 'logs/shop-redacted', sessions: 'logs/shop' });
  assert.equal(p.artifacts, [{ kind: 'dir', path: `${R}/logs/shop-redacted` }]);
});

plan('doctor checks the data directory the console serves', async () => {
  const p = await planJob(request({ kind: 'doctor' }), ID, context());
  assert.equal(p.argv, ['doctor', '--data', R]);
  assert.is(p.title, 'Check the installation');
  assert.equal(p.params, { kind: 'doctor' });
  assert.equal(p.artifacts, []);
});

plan('a request of an unknown kind or a wrong field type is refused by its schema', () => {
  const bad = (body: unknown) => {
    const r = v.safeParse(JobRequestSchema, body);
    return r.success ? 'accepted' : r.issues[0]!.message;
  };
  assert.is(bad({ kind: 'banana' }), 'the job is not as expected: kind: one of learn, promote, audit, stage, redact, doctor');
  assert.is(bad({ kind: 'learn', domain: 'shop' }), 'the job is not as expected: a learn job needs domain and sessions');
  assert.is(bad({ kind: 'stage', flow: 'shop', sessions: 'x', window: -1 }), 'the job is not as expected: window: a whole number, 0 or more');
  assert.is(bad({ kind: 'audit', flow: 'shop', sessions: 'x', decider: 'oracle' }), 'the job is not as expected: decider: one of arbiter, habit, reach');
  assert.is(bad({ kind: 'learn', domain: 'shop', sessions: 'x', overwrite: null, extra: 1 }), 'accepted');
});

plan.run();
