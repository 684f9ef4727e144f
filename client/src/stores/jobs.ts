// What the shell knows of jobs: each job's last status (for the sidebar's running count) and a toast when a
// job moves from queued or running to an end state. Loaded once signed in, refreshed on `changed` jobs,
// kept current by `job` events.
import { createSignal } from 'solid-js';
import type { Job, JobStatus } from '../../../shared/jobs.ts';
import { getJobs } from '../api/endpoints.ts';
import { followStream, onChanged, onJob } from '../api/events.ts';
import { toast } from './toasts.ts';

const [statuses, setStatuses] = createSignal<Record<string, JobStatus>>({});
export const runningJobs = () => Object.values(statuses()).filter((s) => s === 'queued' || s === 'running').length;

const live = (s: JobStatus | undefined) => s === 'queued' || s === 'running';

export function jobSeen(job: Job): void {
  const before = statuses()[job.id];
  if (before === job.status) return;
  setStatuses({ ...statuses(), [job.id]: job.status });
  if (!live(before) || live(job.status)) return;
  if (job.status === 'succeeded') toast({ kind: 'success', title: `${job.title}: done` });
  else if (job.status === 'failed')
    toast({ kind: 'error', title: `${job.title}: failed`, message: `Exit code ${job.exit_code ?? 'unknown'}. The job page has its output.` });
  else if (job.status === 'cancelled') toast({ kind: 'info', title: `${job.title}: cancelled` });
}

async function reload(): Promise<void> {
  try {
    const list = await getJobs();
    const next: Record<string, JobStatus> = {};
    for (const j of list.items) {
      // a transition seen through a reload toasts like one seen through an event
      if (statuses()[j.id] !== j.status) jobSeen(j);
      next[j.id] = j.status;
    }
    setStatuses(next);
  } catch {
    /* the sidebar count waits for the next event */
  }
}

let stop: (() => void)[] = [];
export function startJobs(): void {
  stopJobs();
  const follow = followStream(() => void reload());
  stop = [follow.stop, onChanged('jobs', follow.run), onJob(jobSeen)];
}
export function stopJobs(): void {
  for (const s of stop) s();
  stop = [];
}
