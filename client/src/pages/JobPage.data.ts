// What the job page loads and does: the job, live while it runs (job events, plus a poll every 2.5 s in
// case the stream is down), its Markdown report once it succeeded, cancelling it and running it again.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import * as v from 'valibot';
import { JobRequestSchema, type Job } from '../../../shared/jobs.ts';
import { cancelJob, createJob, getJob, getJobArtifact } from '../api/endpoints.ts';
import { onJob } from '../api/events.ts';
import { createAction } from '../data/createAction.ts';
import { createApiResource, type ApiResource } from '../data/createApiResource.ts';
import { jobRunning } from '../lib/job-status.ts';
import { jobSeen } from '../stores/jobs.ts';

const POLL_MS = 2500;

/** The job as loaded and as its events say; shown through <Loaded> like any resource. */
function createLiveJob(id: Accessor<string>): ApiResource<Job> {
  const res = createApiResource(id, (x, signal) => getJob(x, { signal }), { topics: ['jobs'], key: (x) => x });
  const [job, setJob] = createSignal<Job | undefined>(undefined);
  // A loaded job replaces the shown one only if its output is at least as long, or its status moved.
  createEffect(
    on(res.data, (loaded) => {
      if (!loaded) return;
      const cur = job();
      if (!cur || cur.id !== loaded.id || loaded.status !== cur.status || loaded.output.length >= cur.output.length) setJob(loaded);
    }),
  );
  const stop = onJob((e) => {
    if (e.id !== id()) return;
    const cur = job();
    // An event carries the 64 KiB tail: keep the full text we have when the tail is its end.
    if (cur && e.status === cur.status && cur.output.length > e.output.length && cur.output.endsWith(e.output)) return;
    setJob(e);
  });
  onCleanup(stop);
  const poll = setInterval(() => {
    if (jobRunning(job())) res.refresh();
  }, POLL_MS);
  onCleanup(() => clearInterval(poll));
  return { ...res, data: job, loading: () => job() === undefined && res.error() === undefined, mutate: (j) => setJob(j) };
}

export function createJobPageData(id: Accessor<string>, started: (next: Job) => void) {
  const job = createLiveJob(id);
  // The Markdown report, once the job succeeded.
  const reportIndex = () => {
    const j = job.data();
    if (!j || j.status !== 'succeeded') return -1;
    return j.artifacts.findIndex((a) => a.kind === 'report' && a.path.endsWith('.md'));
  };
  const report = createApiResource(
    () => (reportIndex() < 0 ? null : { id: id(), index: reportIndex() }),
    (s, signal) => getJobArtifact(s.id, s.index, { signal }),
  );
  const cancel = createAction(() => cancelJob(id()), {
    failure: 'Could not cancel the job',
    after: (j) => {
      job.mutate(j);
      jobSeen(j);
    },
  });
  const again = createAction(
    async (j: Job) => {
      // What the job left to its defaults is left to them again, so the new job says so too.
      const unset = Object.fromEntries(j.defaults.map((k) => [k, null]));
      const params: unknown = j.params !== null && typeof j.params === 'object' ? { ...j.params, ...unset } : j.params;
      const body = v.safeParse(JobRequestSchema, params);
      if (!body.success) throw new Error('Its parameters are not a job request.');
      return createJob(body.output);
    },
    { failure: 'The job did not start', after: started },
  );
  return { job, report: (): string | null => report.data() ?? null, cancel, again };
}
