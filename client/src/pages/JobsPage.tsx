// The jobs list: every job the console ran or queued, newest first, with what it wrote and how long it
// took; refreshed on job events.
import { A, useNavigate } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { Job } from '../../../shared/jobs.ts';
import { getJobs } from '../api/endpoints.ts';
import { ArtifactLines } from '../components/job/parts.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, Empty, ErrorState, JobStatusBadge, now, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { formatDuration } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';

export function took(j: Job, at: number): string {
  if (j.started_unix_ms === null) return '—';
  return formatDuration((j.finished_unix_ms ?? at) - j.started_unix_ms);
}

export default function JobsPage() {
  useTitle(() => 'Jobs');
  const navigate = useNavigate();
  const res = createApiResource(
    () => true,
    (_s, signal) => getJobs({ signal }),
    { topics: ['jobs'], jobs: true },
  );
  const rowClick = (e: MouseEvent, j: Job) => {
    if ((e.target as HTMLElement).closest('a, button')) return;
    navigate(`/jobs/${encodeURIComponent(j.id)}`);
  };
  return (
    <div class="page">
      <PageHeader
        title="Jobs"
        sub="The engine CLI, run for you: learn, promote, audit, stage, redact and doctor. Jobs run one at a time, in the order they were started."
        actions={
          <Button variant="primary" icon="plus" to="/jobs/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
            New job
          </Button>
        }
      />
      <Card label="Jobs" flush>
        <Show when={!res.error()} fallback={<ErrorState error={res.error()!} retry={res.refetch} />}>
          <Show when={res.data()} fallback={<div style={{ padding: '8px 18px' }}><Skeleton lines={6} /></div>}>
            <Show
              when={res.data()!.items.length > 0}
              fallback={
                <Empty
                  icon="terminal"
                  title="No jobs yet"
                  actions={
                    <>
                      <Button variant="primary" icon="sparkles" to="/jobs/new?kind=learn" disabled={readOnly()} reason={READ_ONLY_REASON}>
                        Learn a flow
                      </Button>
                      <Button icon="stethoscope" to="/jobs/new?kind=doctor" disabled={readOnly()} reason={READ_ONLY_REASON}>
                        Run engine doctor
                      </Button>
                    </>
                  }
                >
                  Once a server has recorded some sessions, learn a flow from them here, with no key. Then promote it on shadow sessions, and audit it on new
                  ones.
                </Empty>
              }
            >
              <div class={`table-wrap${res.refreshing() ? ' refreshing' : ''}`}>
                <table class="table stacking">
                  <thead>
                    <tr>
                      <th scope="col">Job</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Status</th>
                      <th scope="col">What it wrote</th>
                      <th scope="col" class="n">
                        Took
                      </th>
                      <th scope="col">Started</th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={res.data()!.items}>
                      {(j) => (
                        <tr class="clickable" data-testid={`job-${j.id}`} onClick={(e) => rowClick(e, j)}>
                          <td data-label="Job">
                            <A href={`/jobs/${encodeURIComponent(j.id)}`}>{j.title}</A>
                            <div class="mono subtle" style={{ 'font-size': '11.5px' }}>
                              {j.id}
                            </div>
                          </td>
                          <td data-label="Kind">
                            <span class="badge kind">{j.kind}</span>
                          </td>
                          <td data-label="Status">
                            <JobStatusBadge status={j.status} />
                          </td>
                          <td data-label="What it wrote">
                            <ArtifactLines job={j} compact />
                          </td>
                          <td data-label="Took" class="n">
                            {took(j, now())}
                          </td>
                          <td data-label="Started">
                            <RelTime ms={j.created_unix_ms} />
                          </td>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </div>
            </Show>
          </Show>
        </Show>
      </Card>
    </div>
  );
}
