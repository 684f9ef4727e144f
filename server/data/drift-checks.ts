// Each flow's last finished drift check (the original console's `latest_drift`): the newest drift job on the
// flow's key that ran to its end (succeeded, alarm or not), read from its JSON report. A report that is gone,
// too big or not a drift report still gives the check, with what the job itself says.
import { readFile, stat } from 'node:fs/promises';
import * as v from 'valibot';
import { type DriftCheck, type DriftHealth, DriftReportSchema } from '../../shared/drift.ts';
import type { FlowSummary } from '../../shared/flows.ts';
import type { Job } from '../../shared/jobs.ts';
import { statStamp } from '../store/stamp.ts';
import type { DataContext } from './data-context.ts';
import { resolveRequestPath } from './paths.ts';

/** A drift report past this is not read (one line per session: 5,000 sessions are ~1 MB). */
const DRIFT_REPORT_MAX_BYTES = 32 * 1024 * 1024;
/** The sites a check names: where surprise rose most. */
const DRIFT_SITES_SHOWN = 3;

function flowOf(job: Job): string | null {
  const p = job.params;
  if (p === null || typeof p !== 'object' || !('flow' in p)) return null;
  return typeof p.flow === 'string' ? p.flow : null;
}

async function readReport(state: DataContext, job: Job): Promise<v.InferOutput<typeof DriftReportSchema> | null> {
  const artifact = job.artifacts.find((a) => a.kind === 'report' && a.path.endsWith('.json'));
  if (!artifact) return null;
  try {
    const path = resolveRequestPath(artifact.path, { dataDir: state.config.dataDir, home: state.config.home });
    const st = await stat(path);
    if (!st.isFile() || st.size > DRIFT_REPORT_MAX_BYTES) return null;
    const parsed = v.safeParse(DriftReportSchema, JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** A finished drift job as a check: what its report says, or what the job says when the report is unread. */
export function checkOf(job: Job, report: v.InferOutput<typeof DriftReportSchema> | null): DriftCheck {
  const sessions = report?.sessions.length ?? 0;
  const last = job.alarm ? report?.alarms.at(-1) : undefined;
  const md = job.artifacts.findIndex((a) => a.kind === 'report' && a.path.endsWith('.md'));
  return {
    job: job.id,
    finished_unix_ms: job.finished_unix_ms ?? job.created_unix_ms,
    alarm: job.alarm,
    sessions,
    since: last ? Math.max(0, sessions - last.change) : null,
    probability: last ? last.probability : null,
    sites: last ? last.moved.slice(0, DRIFT_SITES_SHOWN).map((m) => m.site) : [],
    unknown_tools: report ? Object.keys(report.unknown_tools).sort() : [],
    report: md === -1 ? null : md,
  };
}

/** The last finished drift check of every flow that has one, by flow key. */
export async function driftChecks(state: DataContext): Promise<Map<string, DriftCheck>> {
  const latest = new Map<string, Job>();
  // Newest first: the first finished drift job seen for a key is its last.
  for (const job of await state.jobs.list()) {
    if (job.kind !== 'drift' || job.status !== 'succeeded') continue;
    const key = flowOf(job);
    if (key !== null && !latest.has(key)) latest.set(key, job);
  }
  const out = new Map<string, DriftCheck>();
  await Promise.all(
    [...latest].map(async ([key, job]) => {
      const cacheKey = `${job.id}:${job.finished_unix_ms}`;
      const stamp = await reportStamp(state, job);
      const hit = state.caches.driftChecks.get(cacheKey, stamp);
      if (hit) return void out.set(key, hit);
      const check = checkOf(job, await readReport(state, job));
      state.caches.driftChecks.set(cacheKey, stamp, check);
      out.set(key, check);
    }),
  );
  return out;
}

async function reportStamp(state: DataContext, job: Job): Promise<string> {
  const artifact = job.artifacts.find((a) => a.kind === 'report' && a.path.endsWith('.json'));
  if (!artifact) return 'none';
  try {
    return statStamp(await stat(resolveRequestPath(artifact.path, { dataDir: state.config.dataDir, home: state.config.home })));
  } catch {
    return 'gone';
  }
}

/** The overview's drift line per loaded flow (committed versions aside). */
export function driftHealth(flows: readonly FlowSummary[], checks: ReadonlyMap<string, DriftCheck>): DriftHealth[] {
  return flows
    .filter((f) => f.error === null && !f.version_of)
    .map((f) => {
      const check = checks.get(f.key);
      if (!check) return { flow: f.key, path: f.path, state: 'never', checked_unix_ms: null, job: null };
      return { flow: f.key, path: f.path, state: check.alarm ? 'alarm' : 'quiet', checked_unix_ms: check.finished_unix_ms, job: check.job };
    });
}
