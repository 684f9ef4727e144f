// The new-job form as data: the fields of each kind, their defaults, the checks the form makes before it
// sends anything (ui.md §7.5.2), the request body, and the equivalent command line ("Runs"). Pure.
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

/** The sessions directory when the field is empty: logs/<domain> (learn, audit, stage), shadow/<domain> (promote). */
export function defaultSessions(kind: JobKind, f: JobFields, flow: FlowChoice | undefined): string {
  if (kind === 'learn') return f.domain.trim() ? `logs/${f.domain.trim()}` : '';
  if (kind === 'promote') return flow ? `shadow/${flow.domain}` : '';
  if (kind === 'audit' || kind === 'stage') return flow ? `logs/${flow.domain}` : '';
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
      return { kind, domain: f.domain.trim(), sessions, out: orNull(f.out), overwrite: f.overwrite, habit_only: f.habit_only, constants: f.constants };
    case 'promote':
      return {
        kind,
        flow: f.flow,
        sessions,
        oracle_cache: orNull(f.oracle_cache),
        threshold: Number(f.threshold),
        min_used: Number(f.min_used),
        min_lower: Number(f.min_lower),
        min_tasks: Number(f.min_tasks),
        out: orNull(f.out),
        overwrite: f.overwrite,
      };
    case 'audit':
      return { kind, flow: f.flow, sessions, decider: f.decider || null };
    case 'stage':
      return { kind, flow: f.flow, sessions, window: Number(f.window), decider: f.decider || null, half_life: f.half_life.trim() ? Number(f.half_life) : null, constants: f.constants };
    case 'redact':
      return { kind, sessions, out: f.out.trim() || redactOut(f), keep_shared: Number(f.keep_shared), hash_fields: f.hash_fields };
    case 'doctor':
      return { kind: 'doctor' };
  }
}

/** A shell word: bare when safe (or a single <placeholder> among safe characters), else single-quoted. */
export function quoteWord(w: string): string {
  if (/^[A-Za-z0-9\-_./:=@%+,~]+$/.test(w)) return w;
  if (/^[A-Za-z0-9\-_./:=@%+,~]*<[a-z -]+>[A-Za-z0-9\-_./:=@%+,~]*$/.test(w)) return w;
  return `'${w.replace(/'/g, `'\\''`)}'`;
}

export function commandText(words: string[]): string {
  return words.map(quoteWord).join(' ');
}

/** "Runs": the equivalent engine command, with placeholders for what is missing. */
export function commandPreview(kind: JobKind, f: JobFields, flow: FlowChoice | undefined): string {
  const sessions = f.sessions.trim() || defaultSessions(kind, f, flow) || '<dir>';
  const flowPath = flow?.path ?? '<flow>';
  const w: string[] = ['engine', kind];
  switch (kind) {
    case 'learn': {
      const d = f.domain.trim() || '<domain>';
      w.push('--sessions', sessions, '--domain', d);
      if (f.habit_only) w.push('--habit-only');
      if (f.constants) w.push('--constants');
      w.push('--out', f.out.trim() || `${d}.flow.json`);
      break;
    }
    case 'promote':
      w.push('--flow', flowPath, '--sessions', sessions);
      if (f.oracle_cache.trim()) w.push('--oracle-cache', f.oracle_cache.trim());
      w.push('--threshold', f.threshold.trim() || '<t>', '--min-used', f.min_used.trim() || '<u>', '--min-lower', f.min_lower.trim() || '<l>', '--min-tasks', f.min_tasks.trim() || '<n>');
      w.push('--out', f.out.trim() || `${flow?.name ?? '<name>'}.promoted.flow.json`);
      break;
    case 'audit':
      w.push('--flow', flowPath, '--sessions', sessions);
      if (f.decider) w.push('--decider', f.decider);
      w.push('--json', '<report>');
      break;
    case 'stage':
      w.push('--flow', flowPath, '--sessions', sessions, '--window', f.window.trim() || '<n>');
      if (f.decider) w.push('--decider', f.decider);
      if (f.half_life.trim()) w.push('--half-life', f.half_life.trim());
      if (f.constants) w.push('--constants');
      break;
    case 'redact':
      w.push('--sessions', f.sessions.trim() || '<dir>', '--out', f.out.trim() || redactOut(f) || '<dir>', '--keep-shared', f.keep_shared.trim() || '<n>');
      if (f.hash_fields.length > 0) w.push('--hash-field', f.hash_fields.join(','));
      break;
    case 'doctor':
      break;
  }
  return commandText(w);
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
  return out;
}
