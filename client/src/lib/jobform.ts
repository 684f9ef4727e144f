// The new-job form as data: the fields of each kind, their defaults, the checks the form makes before it
// sends anything (ui.md §7.5.2) and the request body. The command it runs is the server's preview, planned
// by the job's own planner, never worked out here. Pure.
import type { DeciderName } from '../../../shared/flows.ts';
import { JOB_DOMAIN, type JobKind, type JobRequest } from '../../../shared/jobs.ts';

export interface JobFields {
  domain: string;
  sessions: string;
  out: string;
  overwrite: boolean;
  habit_only: boolean;
  constants: boolean;
  flow: string;
  oracle_cache: string;
  threshold: string;
  min_used: string;
  min_lower: string;
  min_tasks: string;
  decider: '' | DeciderName;
  window: string;
  half_life: string;
  keep_shared: string;
  hash_fields: string[];
  /** Drift's own window and threshold: their defaults (10, 0.5) are not stage's and promote's. */
  drift_window: string;
  drift_threshold: string;
}

export function defaultFields(): JobFields {
  return {
    domain: '',
    sessions: '',
    out: '',
    overwrite: false,
    habit_only: true,
    constants: false,
    flow: '',
    oracle_cache: '',
    threshold: '0.3',
    min_used: '0.7',
    min_lower: '0.5',
    min_tasks: '3',
    decider: '',
    window: '50',
    half_life: '',
    keep_shared: '3',
    hash_fields: [],
    drift_window: '10',
    drift_threshold: '0.5',
  };
}

/** What the form needs to know of the chosen flow. */
export interface FlowChoice {
  key: string;
  path: string;
  name: string;
  domain: string;
}

export type FieldErrors = Partial<Record<keyof JobFields, string>>;

export function domainError(d: string): string | null {
  if (d === '') return 'Name the domain.';
  // The CLI's own rule (shared/jobs.ts): the server answers 400 past it, so the form says so first.
  if (!/^[A-Za-z0-9._-]+$/.test(d)) return 'Use letters, digits, -, _ and .';
  if (!JOB_DOMAIN.test(d)) return 'Start with a letter, a digit or _.';
  return null;
}

const isProb = (s: string) => s.trim() !== '' && Number.isFinite(Number(s)) && Number(s) >= 0 && Number(s) <= 1;
const isCount = (s: string) => /^\d+$/.test(s.trim()) && Number(s) >= 1;

/** The checks before sending; an empty Sessions field is fine where the form has a default for it (the preview's). */
export function validate(kind: JobKind, f: JobFields, flow?: FlowChoice): FieldErrors {
  const e: FieldErrors = {};
  const needSessions = () => {
    if (f.sessions.trim() === '' && defaultSessions(kind, f, flow) === '') {
      e.sessions = flow || kind === 'redact' ? 'Give the directory of sessions.' : 'Give the directory of sessions, or choose a flow to use its default.';
    }
  };
  const needFlow = (what: string) => {
    if (f.flow === '') e.flow = `Choose the flow to ${what}.`;
  };
  switch (kind) {
    case 'learn': {
      const d = domainError(f.domain.trim());
      if (d) e.domain = d;
      break;
    }
    case 'promote':
      needFlow('promote');
      needSessions();
      for (const k of ['threshold', 'min_used', 'min_lower'] as const) if (!isProb(f[k])) e[k] = 'A number from 0 to 1.';
      if (!isCount(f.min_tasks)) e.min_tasks = 'A whole number, 1 or more.';
      break;
    case 'audit':
      needFlow('audit');
      needSessions();
      break;
    case 'stage':
      needFlow('stage');
      needSessions();
      if (!isCount(f.window)) e.window = 'A whole number, 1 or more.';
      if (f.half_life.trim() !== '' && !(Number(f.half_life) > 0)) e.half_life = 'A number of sessions, more than 0.';
      break;
    case 'drift':
      needFlow('check for drift');
      needSessions();
      if (!(/^\d+$/.test(f.drift_window.trim()) && Number(f.drift_window) >= 3)) e.drift_window = 'A whole number of sessions, 3 or more.';
      if (!(isProb(f.drift_threshold) && Number(f.drift_threshold) > 0)) e.drift_threshold = 'A number above 0, at most 1.';
      break;
    case 'redact':
      needSessions();
      if (!isCount(f.keep_shared)) e.keep_shared = 'A whole number, 1 or more.';
      break;
    case 'doctor':
      break;
  }
  return e;
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
const DEFAULTS = defaultFields();
/** A number field: null (the server's default) while it holds the default, so the job says it is one. */
const num = (f: JobFields, k: 'threshold' | 'min_used' | 'min_lower' | 'min_tasks' | 'window' | 'keep_shared' | 'drift_window' | 'drift_threshold') =>
  f[k].trim() === DEFAULTS[k] ? null : Number(f[k]);
/** A box left as it was: null, the server's default. */
const flag = (f: JobFields, k: 'overwrite' | 'habit_only' | 'constants') => (f[k] === DEFAULTS[k] ? null : f[k]);

/** The sessions directory when the field is empty: logs/<domain> (learn, audit, stage), shadow/<domain> (promote). */
export function defaultSessions(kind: JobKind, f: JobFields, flow: FlowChoice | undefined): string {
  if (kind === 'learn') return f.domain.trim() ? `logs/${f.domain.trim()}` : '';
  if (kind === 'promote') return flow ? `shadow/${flow.domain}` : '';
  if (kind === 'audit' || kind === 'stage' || kind === 'drift') return flow ? `logs/${flow.domain}` : '';
  return '';
}

export function redactOut(f: JobFields): string {
  const parts = f.sessions.trim().replace(/\/+$/, '').split('/');
  const last = parts[parts.length - 1] ?? '';
  return last ? `redacted/${last}` : '';
}

export function requestBody(kind: JobKind, f: JobFields, flow: FlowChoice | undefined): JobRequest {
  const sessions = f.sessions.trim() || defaultSessions(kind, f, flow);
  switch (kind) {
    case 'learn':
      return { kind, domain: f.domain.trim(), sessions, out: orNull(f.out), overwrite: flag(f, 'overwrite'), habit_only: flag(f, 'habit_only'), constants: flag(f, 'constants') };
    case 'promote':
      return {
        kind,
        flow: f.flow,
        sessions,
        oracle_cache: orNull(f.oracle_cache),
        threshold: num(f, 'threshold'),
        min_used: num(f, 'min_used'),
        min_lower: num(f, 'min_lower'),
        min_tasks: num(f, 'min_tasks'),
        out: orNull(f.out),
        overwrite: flag(f, 'overwrite'),
      };
    case 'audit':
      return { kind, flow: f.flow, sessions, decider: f.decider || null };
    case 'stage':
      return { kind, flow: f.flow, sessions, window: num(f, 'window'), decider: f.decider || null, half_life: f.half_life.trim() ? Number(f.half_life) : null, constants: flag(f, 'constants') };
    case 'drift':
      return { kind, flow: f.flow, sessions, decider: f.decider || null, window: num(f, 'drift_window'), threshold: num(f, 'drift_threshold') };
    case 'redact':
      return { kind, sessions, out: f.out.trim() || redactOut(f), keep_shared: num(f, 'keep_shared'), hash_fields: f.hash_fields.length > 0 ? f.hash_fields : null };
    case 'doctor':
      return { kind: 'doctor' };
  }
}

/** Fill the form from a job's params (Run again…): unknown or missing fields keep their defaults. */
export function fieldsFromParams(params: unknown): Partial<JobFields> {
  if (params === null || typeof params !== 'object') return {};
  const p = params as Record<string, unknown>;
  const out: Partial<JobFields> = {};
  const str = (k: keyof JobFields & string) => {
    const v = p[k];
    if (typeof v === 'string') (out as Record<string, unknown>)[k] = v;
    else if (typeof v === 'number') (out as Record<string, unknown>)[k] = String(v);
  };
  for (const k of ['domain', 'sessions', 'out', 'flow', 'oracle_cache', 'threshold', 'min_used', 'min_lower', 'min_tasks', 'window', 'half_life', 'keep_shared'] as const) str(k);
  for (const k of ['overwrite', 'habit_only', 'constants'] as const) if (typeof p[k] === 'boolean') out[k] = p[k] as boolean;
  if (p.decider === 'arbiter' || p.decider === 'habit' || p.decider === 'reach') out.decider = p.decider;
  if (Array.isArray(p.hash_fields)) out.hash_fields = p.hash_fields.filter((x): x is string => typeof x === 'string');
  if (p.kind === 'drift') {
    if (out.window !== undefined) out.drift_window = out.window;
    if (out.threshold !== undefined) out.drift_threshold = out.threshold;
    delete out.window;
    delete out.threshold;
  }
  return out;
}
