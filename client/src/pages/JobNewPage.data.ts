// What the new-job page loads and does: the flows and sessions the form offers, the past job whose
// parameters it starts from (?from=<job id>), and starting the job.
import type { FlowSummary } from '../../../shared/flows.ts';
import type { JobRequest } from '../../../shared/jobs.ts';
import type { SessionSummary } from '../../../shared/sessions.ts';
import { createJob, getFlows, getJob, getSessions } from '../api/endpoints.ts';
import { createAction } from '../data/createAction.ts';
import { createApiResource } from '../data/createApiResource.ts';

export function createJobNewData(from: string) {
  const flows = createApiResource(() => true, (_s, signal) => getFlows({ signal }), { topics: ['flows'] });
  const sessions = createApiResource(() => true, (_s, signal) => getSessions({ limit: 200 }, { signal }));
  // A past job that does not load leaves the form as the address set it.
  const source = createApiResource(() => from || null, (id, signal) => getJob(id, { signal }));
  const start = createAction((body: JobRequest, id: string | null) => createJob(body, id));
  return {
    flows: (): FlowSummary[] => flows.data()?.items ?? [],
    sessions: (): SessionSummary[] => sessions.data()?.items ?? [],
    source: source.data,
    start,
  };
}
