// The jobs list: every job the console ran or queued, newest first, with what it wrote and how long it
// took; refreshed on job events.
import { A } from '@solidjs/router';
import type { Job } from '../../../shared/jobs.ts';
import { getJobs } from '../api/endpoints.ts';
import { ArtifactLines } from '../components/job/ArtifactLines.tsx';
import { DataTable } from '../components/ui/Table.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { AlarmBadge, Button, Card, Empty, JobStatusBadge, now, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { formatDuration } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';

export function took(j: Job, at: number): string {
  if (j.started_unix_ms === null) return '—';
  return formatDuration((j.finished_unix_ms ?? at) - j.started_unix_ms);
}

const jobHref = (j: Job) => `/jobs/${encodeURIComponent(j.id)}`;

export default function JobsPage() {
  useTitle(() => 'Jobs');
  const res = createApiResource(
    () => true,
    (_s, signal) => getJobs({ signal }),
    { topics: ['jobs'], jobs: true },
  );
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
        <Loaded resource={res} skeleton={<div style={{ padding: '8px 18px' }}><Skeleton lines={6} /></div>}>
          {(data) => (
            <DataTable
              stacking
              wrapClass={res.refreshing() ? 'refreshing' : undefined}
              rows={data().items}
              rowClass="clickable"
              rowTestId={(j) => `job-${j.id}`}
              rowHref={jobHref}
              empty={
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
              columns={[
                {
                  head: 'Job',
                  cell: (j) => (
                    <>
                      <A href={jobHref(j)}>{j.title}</A>
                      <div class="mono subtle" style={{ 'font-size': '11.5px' }}>
                        {j.id}
                      </div>
                    </>
                  ),
                },
                { head: 'Kind', cell: (j) => <span class="badge kind">{j.kind}</span> },
                {
                  head: 'Status',
                  cell: (j) => (
                    <>
                      <JobStatusBadge status={j.status} /> <AlarmBadge alarm={j.alarm} />
                    </>
                  ),
                },
                { head: 'What it wrote', cell: (j) => <ArtifactLines job={j} compact /> },
                { head: 'Took', headClass: 'n', class: 'n', cell: (j) => took(j, now()) },
                { head: 'Started', cell: (j) => <RelTime ms={j.created_unix_ms} /> },
              ]}
            />
          )}
        </Loaded>
      </Card>
    </div>
  );
}
