// Planning a job (console-api.md §5.2, init-doctor-stage.md §4): a request becomes the CLI's argv, a title,
// the params (the request with its defaults filled in, keys sorted, paths shown) and the artifacts it will
// write. Every check runs here, in the reference's order, before anything is queued: a refusal is a
// PlanError with its status and exact message, and no job exists. The only thing a plan writes is the parent
// directory of a learn/promote output (`fresh`), as the original does; a preview writes nothing. The same
// plan answers the preview and runs the job, so the command shown is the command run.
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { type ArtifactKind, JOB_DOMAIN, type JobKind, type JobRequest, type OptionalJobKind } from '../../shared/jobs.ts';
import { FLOW_THRESHOLD_DEFAULT, STAGE_WINDOW_DEFAULT } from '../../shared/limits.ts';
import { resolveRequestPath, shown as shownPath } from '../data/paths.ts';
import { insideDir } from '../engine/scan.ts';
import { stagePaths } from '../engine/stage.ts';
import { checkContained, LeadsOut } from '../data/stage-containment.ts';
import { debugString, display } from '../engine/format.ts';
import { errorText } from '../../shared/error-text.ts';
import { FLOW_FILE, STAGED, STAGED_FLOW_FILE } from '../store/log-names.ts';

const PROMOTE_MIN_USED_DEFAULT = 0.7;
const PROMOTE_MIN_LOWER_DEFAULT = 0.5;
const PROMOTE_MIN_TASKS_DEFAULT = 3;
const REDACT_KEEP_SHARED_DEFAULT = 3;
const DRIFT_WINDOW_DEFAULT = 10;
/** A change needs three sessions of the new run (the CLI's MIN_RUN), so a shorter window never sounds. */
const DRIFT_WINDOW_MIN = 3;
const DRIFT_THRESHOLD_DEFAULT = 0.5;

/** A refusal: the route answers `status` with `message`; no job is created. */
export class PlanError extends Error {
  readonly status: 400 | 409 | 422 | 500;
  constructor(status: 400 | 409 | 422 | 500, message: string) {
    super(message);
    this.status = status;
  }
}

export interface PlannedArtifact {
  kind: ArtifactKind;
  /** Absolute. */
  path: string;
}

export interface Plan {
  kind: JobKind;
  title: string;
  params: Record<string, unknown>;
  /** The keys of `params` the request left unset (their values are the defaults). */
  defaults: string[];
  /** The CLI's arguments, without the program. */
  argv: string[];
  artifacts: PlannedArtifact[];
  /**
   * A file the job may write over (absolute, in the data directory), kept in the trash before the job runs:
   * moved there, or copied when the CLI reads it too (stage reads the staged flow it rewrites).
   */
  replaces: { path: string; keep: 'move' | 'copy' } | null;
}

export interface PlanContext {
  /** The canonical data directory. */
  dataDir: string;
  home: string | null;
  /** TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE is set in the console's environment. */
  keySet: boolean;
  /** ENGINE_REDACT_SALT is set in the console's environment. */
  redactSaltSet: boolean;
  /** The catalog flow with this key. */
  flow(key: string): { rel: string; path: string } | undefined;
  /** Loads the flow file and gives its domain; throws with why it does not load. */
  flowDomain(path: string): Promise<string>;
  /** Whether the engine CLI has an optional command, and how that was found (jobs/commands.ts). */
  offer(command: OptionalJobKind): Promise<{ offered: boolean; why: string }>;
  /** A preview: plan, and write nothing (not even an output's parent directory). */
  dryRun?: boolean;
}

/** The CLI's argv, built so that no value can be read as an option. */
class Argv {
  readonly words: string[];
  constructor(command: string) {
    this.words = [command];
  }

  flag(name: string): this {
    this.words.push(name);
    return this;
  }

  /** `name value`; a value that starts with `-` is refused, naming the request's field. */
  opt(name: string, value: string, field: string): this {
    if (value.startsWith('-')) {
      throw new PlanError(400, `${field}: ${debugString(value)} starts with -, which the CLI would read as an option: give a value that does not`);
    }
    this.words.push(name, value);
    return this;
  }
}

/** The keys among `keys` that `request` leaves unset. */
function unset<R extends object>(request: R, keys: readonly (keyof R & string)[]): string[] {
  return keys.filter((k) => request[k] === null || request[k] === undefined);
}

/** `YYYYMMDDTHHMMSS.mmmZ-xxxx` from the console's clock and 4 random hex digits. */
export function jobId(nowMs: number, random4hex: string): string {
  const iso = new Date(nowMs).toISOString(); // 2026-09-28T03:48:08.428Z
  return `${iso.replaceAll('-', '').replaceAll(':', '')}-${random4hex}`;
}

/** The reports a job writes: `<data>/console/jobs/<id>.<suffix>`. */
function reportPath(dataDir: string, id: string, suffix: string): string {
  return join(dataDir, 'console', 'jobs', `${id}.${suffix}`);
}

function checkDomain(domain: string): void {
  if (!JOB_DOMAIN.test(domain)) {
    throw new PlanError(
      400,
      `--domain ${debugString(domain)}: the domain names the server, a directory and a flow's file, so use letters, digits, \`-\`, \`_\` and \`.\``,
    );
  }
}

/** `a` is `b` or lies under it, compared part by part. */
function within(a: string, b: string): boolean {
  const pa = a.split(sep).filter(Boolean);
  const pb = b.split(sep).filter(Boolean);
  return pb.length <= pa.length && pb.every((part, i) => pa[i] === part);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Both name one file (by real path), or the same path when neither exists. */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [ra, rb] = await Promise.all([realpath(a).catch(() => a), realpath(b).catch(() => b)]);
  return ra === rb;
}

/** The file name without `.flow.json`. */
function flowName(path: string): string {
  const name = basename(path);
  return name.endsWith(FLOW_FILE) ? name.slice(0, -FLOW_FILE.length) : name;
}

/**
 * The committed flow for a key that names either flow (init-doctor-stage.md §3.1): `X.staged.flow.json`
 * maps to `X.flow.json` beside it; any other file is the committed flow itself.
 */
function committedPathOf(path: string): { committed: string; name: string; staged: string } {
  const file = basename(path);
  let committed = path;
  if (file.endsWith(STAGED_FLOW_FILE) && file.length > STAGED_FLOW_FILE.length) {
    committed = join(dirname(path), `${file.slice(0, -STAGED_FLOW_FILE.length)}${FLOW_FILE}`);
  }
  const cfile = basename(committed);
  const stem = cfile.endsWith(FLOW_FILE) ? cfile.slice(0, -FLOW_FILE.length) : '';
  if (stem === '') throw new PlanError(400, `${committed}: name the committed flow NAME.flow.json, as engine init does`);
  if (stem.endsWith(STAGED)) {
    throw new PlanError(400, `${committed} is a staged flow: name the committed one, ${stem.slice(0, -STAGED.length)}${FLOW_FILE}`);
  }
  return { committed, name: stem, staged: join(dirname(committed), `${stem}${STAGED_FLOW_FILE}`) };
}

/**
 * What every planner needs besides its request: where things are shown and written, and the checks that
 * turn a bad value into a PlanError with the reference's message.
 */
class Planning {
  readonly dataDir: string;
  readonly oracleCache: string;
  private readonly where: { dataDir: string; home: string | null };

  constructor(
    readonly ctx: PlanContext,
    private readonly id: string,
  ) {
    this.dataDir = ctx.dataDir;
    this.where = { dataDir: ctx.dataDir, home: ctx.home };
    this.oracleCache = join(ctx.dataDir, 'oracle-cache');
  }

  /** A path as the params and titles show it. */
  shown(path: string): string {
    return shownPath(path, this.where);
  }

  /** This job's report with this suffix. */
  report(suffix: string): string {
    return reportPath(this.dataDir, this.id, suffix);
  }

  resolve(what: string, path: string): string {
    try {
      return resolveRequestPath(path, this.where);
    } catch (err) {
      throw new PlanError(400, `${what}: ${errorText(err)}`);
    }
  }

  async dir(what: string, path: string): Promise<string> {
    const resolved = this.resolve(what, path);
    if (!(await isDirectory(resolved))) throw new PlanError(400, `${what}: ${path} is not a directory`);
    return resolved;
  }

  /**
   * Refuses an output that exists unless it may be overwritten, and makes its parent directory. A file that
   * may be overwritten must be one the trash can keep: a file (not a directory) in the data directory.
   */
  async fresh(what: string, path: string, overwrite: boolean): Promise<void> {
    const found = await lstat(path).catch(() => null);
    if (found && !overwrite) {
      throw new PlanError(409, `${this.shown(path)} exists: choose another path, or overwrite it`);
    }
    if (found?.isDirectory()) throw new PlanError(400, `${what}: ${this.shown(path)} is a directory: name a file`);
    if (found && !insideDir(path, this.dataDir)) {
      throw new PlanError(400, `${what}: ${this.shown(path)} is outside the data directory, whose trash keeps what a job replaces: choose a new file, or one in the data directory`);
    }
    if (this.ctx.dryRun) return;
    const parent = dirname(path);
    try {
      await mkdir(parent, { recursive: true });
    } catch (err) {
      throw new PlanError(500, `creating ${this.shown(parent)}: ${errorText(err)}`);
    }
  }

  flowOf(key: string): { rel: string; path: string } {
    const file = this.ctx.flow(key);
    if (!file) throw new PlanError(400, `no flow ${debugString(key)}`);
    return file;
  }

  /** Every file of a deployment's staged learning resolves inside the data directory (links compared by real path). */
  async contained(committed: string): Promise<void> {
    try {
      await checkContained(this.dataDir, stagePaths(committed));
    } catch (err) {
      if (err instanceof LeadsOut) throw new PlanError(400, `flow: ${err.message}`);
      throw err;
    }
  }

  prob(what: string, x: number): number {
    if (!Number.isFinite(x) || x < 0 || x > 1) throw new PlanError(400, `${what} ${display(x)}: from 0 to 1`);
    return x;
  }
}

type RequestOf = { [K in JobKind]: Extract<JobRequest, { kind: K }> };
/** One planner per job kind, each given the request of its own kind. */
type Planners = { [K in JobKind]: (request: RequestOf[K], p: Planning) => Promise<Plan> };

async function planLearn(request: RequestOf['learn'], p: Planning): Promise<Plan> {
  const overwrite = request.overwrite ?? false;
  const habitOnly = request.habit_only ?? true;
  const constants = request.constants ?? false;
  checkDomain(request.domain);
  if (!habitOnly && !p.ctx.keySet) {
    throw new PlanError(
      400,
      "fitting an arbiter asks TypeSafe's Jev, and neither TYPESAFE_API_KEY nor TYPESAFE_API_KEY_FILE is set in the console's environment: learn with habit_only",
    );
  }
  const from = await p.dir('sessions', request.sessions);
  const to = request.out != null ? p.resolve('out', request.out) : join(p.dataDir, `${request.domain}${FLOW_FILE}`);
  await p.fresh('out', to, overwrite);
  const argv = new Argv('learn').opt('--sessions', from, 'sessions').opt('--domain', request.domain, 'domain').opt('--out', to, 'out');
  if (habitOnly) argv.flag('--habit-only');
  else argv.opt('--oracle-cache', p.oracleCache, 'oracle_cache');
  if (constants) argv.flag('--constants');
  return {
    kind: 'learn',
    title: `Learn ${request.domain} from ${p.shown(from)}`,
    params: {
      constants,
      domain: request.domain,
      habit_only: habitOnly,
      kind: 'learn',
      out: p.shown(to),
      overwrite,
      sessions: p.shown(from),
    },
    defaults: unset(request, ['constants', 'habit_only', 'out', 'overwrite']),
    argv: argv.words,
    artifacts: [{ kind: 'flow', path: to }],
    replaces: overwrite ? { path: to, keep: 'move' } : null,
  };
}

async function planPromote(request: RequestOf['promote'], p: Planning): Promise<Plan> {
  const overwrite = request.overwrite ?? false;
  const file = p.flowOf(request.flow);
  const from = await p.dir('sessions', request.sessions);
  const cache = request.oracle_cache != null ? p.resolve('oracle_cache', request.oracle_cache) : p.oracleCache;
  const threshold = p.prob('threshold', request.threshold ?? FLOW_THRESHOLD_DEFAULT);
  const minUsed = p.prob('min_used', request.min_used ?? PROMOTE_MIN_USED_DEFAULT);
  const minLower = p.prob('min_lower', request.min_lower ?? PROMOTE_MIN_LOWER_DEFAULT);
  const minTasks = request.min_tasks ?? PROMOTE_MIN_TASKS_DEFAULT;
  if (minTasks === 0) throw new PlanError(400, 'min_tasks: at least 1');
  const name = flowName(file.path);
  const to = request.out != null ? p.resolve('out', request.out) : join(dirname(file.path), `${name}.promoted${FLOW_FILE}`);
  if (overwrite && (await sameFile(to, file.path))) {
    throw new PlanError(400, 'out: the promoted flow goes to a file of its own, not over the flow it is promoted from');
  }
  await p.fresh('out', to, overwrite);
  const promoteReport = p.report('promote.md');
  return {
    kind: 'promote',
    title: `Promote ${name} on ${p.shown(from)}`,
    params: {
      flow: request.flow,
      kind: 'promote',
      min_lower: minLower,
      min_tasks: minTasks,
      min_used: minUsed,
      oracle_cache: p.shown(cache),
      out: p.shown(to),
      overwrite,
      sessions: p.shown(from),
      threshold,
    },
    defaults: unset(request, ['min_lower', 'min_tasks', 'min_used', 'oracle_cache', 'out', 'overwrite', 'threshold']),
    argv: new Argv('promote')
      .opt('--flow', file.path, 'flow')
      .opt('--sessions', from, 'sessions')
      .opt('--oracle-cache', cache, 'oracle_cache')
      .opt('--threshold', display(threshold), 'threshold')
      .opt('--min-used', display(minUsed), 'min_used')
      .opt('--min-lower', display(minLower), 'min_lower')
      .opt('--min-tasks', String(minTasks), 'min_tasks')
      .opt('--out', to, 'out')
      .opt('--report', promoteReport, 'report').words,
    artifacts: [
      { kind: 'flow', path: to },
      { kind: 'report', path: promoteReport },
    ],
    replaces: overwrite ? { path: to, keep: 'move' } : null,
  };
}

/** `COMMAND --flow F --sessions S --oracle replay --oracle-cache C`: how audit and drift both start. */
function replayedOver(command: string, flow: string, sessions: string, p: Planning): Argv {
  return new Argv(command)
    .opt('--flow', flow, 'flow')
    .opt('--sessions', sessions, 'sessions')
    .opt('--oracle', 'replay', 'oracle')
    .opt('--oracle-cache', p.oracleCache, 'oracle_cache');
}

async function planAudit(request: RequestOf['audit'], p: Planning): Promise<Plan> {
  const file = p.flowOf(request.flow);
  const from = await p.dir('sessions', request.sessions);
  const json = p.report('audit.json');
  const md = p.report('audit.md');
  const argv = replayedOver('audit', file.path, from, p)
    .opt('--out', md, 'out')
    .opt('--json', json, 'json');
  if (request.decider != null) argv.opt('--decider', request.decider, 'decider');
  return {
    kind: 'audit',
    title: `Audit ${flowName(file.path)} on ${p.shown(from)}`,
    params: { decider: request.decider ?? null, flow: request.flow, kind: 'audit', sessions: p.shown(from) },
    defaults: unset(request, ['decider']),
    argv: argv.words,
    artifacts: [
      { kind: 'report', path: json },
      { kind: 'report', path: md },
    ],
    replaces: null,
  };
}

async function planStage(request: RequestOf['stage'], p: Planning): Promise<Plan> {
  const file = p.flowOf(request.flow);
  const paths = committedPathOf(file.path);
  await p.contained(paths.committed);
  let domain: string;
  try {
    domain = await p.ctx.flowDomain(file.path);
  } catch (err) {
    throw new PlanError(422, `${file.rel} does not load: ${errorText(err)}`);
  }
  const from = await p.dir('sessions', request.sessions);
  const window = request.window ?? STAGE_WINDOW_DEFAULT;
  if (window === 0) throw new PlanError(400, 'window: at least 1 session');
  const halfLife = request.half_life ?? null;
  if (halfLife !== null && !(Number.isFinite(halfLife) && halfLife > 0)) {
    throw new PlanError(400, `half_life ${display(halfLife)}: a number of sessions, more than 0`);
  }
  const constants = request.constants ?? false;
  const md = p.report('stage.md');
  const json = p.report('stage.json');
  const argv = new Argv('stage')
    .opt('--flow', paths.committed, 'flow')
    .opt('--domain', domain, 'flow')
    .opt('--sessions', from, 'sessions')
    .opt('--oracle-cache', p.oracleCache, 'oracle_cache')
    .opt('--window', String(window), 'window')
    .opt('--out', md, 'out')
    .opt('--json', json, 'json');
  if (request.decider != null) argv.opt('--decider', request.decider, 'decider');
  if (halfLife !== null) argv.opt('--half-life', display(halfLife), 'half_life');
  if (constants) argv.flag('--constants');
  return {
    kind: 'stage',
    title: `Stage ${paths.name} from ${p.shown(from)}`,
    params: {
      constants,
      decider: request.decider ?? null,
      flow: request.flow,
      half_life: halfLife,
      kind: 'stage',
      sessions: p.shown(from),
      window,
    },
    defaults: unset(request, ['constants', 'decider', 'half_life', 'window']),
    argv: argv.words,
    artifacts: [
      { kind: 'flow', path: paths.staged },
      { kind: 'report', path: md },
      { kind: 'report', path: json },
    ],
    replaces: { path: paths.staged, keep: 'copy' },
  };
}

async function planDrift(request: RequestOf['drift'], p: Planning): Promise<Plan> {
  const offer = await p.ctx.offer('drift');
  if (!offer.offered) throw new PlanError(400, `drift is not offered: ${offer.why}`);
  const file = p.flowOf(request.flow);
  const from = await p.dir('sessions', request.sessions);
  const window = request.window ?? DRIFT_WINDOW_DEFAULT;
  if (window < DRIFT_WINDOW_MIN) throw new PlanError(400, `window ${window}: at least 3 sessions, as a change needs three of the new run`);
  const threshold = request.threshold ?? DRIFT_THRESHOLD_DEFAULT;
  if (!(Number.isFinite(threshold) && threshold > 0 && threshold <= 1)) {
    throw new PlanError(400, `threshold ${display(threshold)}: a probability above 0 and at most 1`);
  }
  const json = p.report('drift.json');
  const md = p.report('drift.md');
  const argv = replayedOver('drift', file.path, from, p)
    .opt('--window', String(window), 'window')
    .opt('--threshold', display(threshold), 'threshold')
    .opt('--out', md, 'out')
    .opt('--json', json, 'json');
  // Unset, the CLI decides with the habit (its default), as the original console leaves it.
  if (request.decider != null) argv.opt('--decider', request.decider, 'decider');
  return {
    kind: 'drift',
    title: `Drift of ${flowName(file.path)} on ${p.shown(from)}`,
    params: { decider: request.decider ?? null, flow: request.flow, kind: 'drift', sessions: p.shown(from), threshold, window },
    defaults: unset(request, ['decider', 'threshold', 'window']),
    argv: argv.words,
    artifacts: [
      { kind: 'report', path: json },
      { kind: 'report', path: md },
    ],
    replaces: null,
  };
}

/** `hash_fields` as the CLI takes them: each entry split at commas, blanks dropped, no spaces inside. */
function hashFields(entries: readonly string[]): string[] {
  const fields: string[] = [];
  for (const entry of entries) {
    for (const piece of entry.split(',')) {
      const field = piece.trim();
      if (field === '') continue;
      if (/\s/.test(field)) throw new PlanError(400, 'hash_fields: field names, without spaces');
      fields.push(field);
    }
  }
  return fields;
}

async function planRedact(request: RequestOf['redact'], p: Planning): Promise<Plan> {
  if (!p.ctx.redactSaltSet) {
    throw new PlanError(400, "redacting needs a salt: set ENGINE_REDACT_SALT in the console's environment (docs/privacy.md)");
  }
  const from = await p.dir('sessions', request.sessions);
  const to = p.resolve('out', request.out);
  if (within(to, from) || within(from, to)) {
    throw new PlanError(400, 'out: the redacted copy goes in a directory of its own, apart from the sessions');
  }
  const keepShared = request.keep_shared ?? REDACT_KEEP_SHARED_DEFAULT;
  if (keepShared === 0) throw new PlanError(400, 'keep_shared: at least 1');
  const fields = hashFields(request.hash_fields ?? []);
  const argv = new Argv('redact').opt('--sessions', from, 'sessions').opt('--out', to, 'out').opt('--keep-shared', String(keepShared), 'keep_shared');
  for (const field of fields) argv.opt('--hash-field', field, 'hash_fields');
  return {
    kind: 'redact',
    title: `Redact ${p.shown(from)}`,
    params: { hash_fields: fields, keep_shared: keepShared, kind: 'redact', out: p.shown(to), sessions: p.shown(from) },
    defaults: unset(request, ['hash_fields', 'keep_shared']),
    argv: argv.words,
    artifacts: [{ kind: 'dir', path: to }],
    replaces: null,
  };
}

async function planDoctor(_request: RequestOf['doctor'], p: Planning): Promise<Plan> {
  return {
    kind: 'doctor',
    title: 'Check the installation',
    params: { kind: 'doctor' },
    defaults: [],
    argv: new Argv('doctor').opt('--data', p.dataDir, 'data').words,
    artifacts: [],
    replaces: null,
  };
}

const PLANNERS: Planners = {
  learn: planLearn,
  promote: planPromote,
  audit: planAudit,
  stage: planStage,
  drift: planDrift,
  redact: planRedact,
  doctor: planDoctor,
};

/** The planner of the request's kind, given the request (typed so the kind and the request agree). */
function planWith<K extends JobKind>(kind: K, request: RequestOf[K], p: Planning): Promise<Plan> {
  return PLANNERS[kind](request, p);
}

/** Plans `request` as job `id`; throws PlanError on the first check that fails. */
export async function planJob(request: JobRequest, id: string, ctx: PlanContext): Promise<Plan> {
  return planWith(request.kind, request, new Planning(ctx, id));
}
