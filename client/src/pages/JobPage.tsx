// One job: its status and output, live while it runs, following the end of the output unless you scroll
// up; its report rendered once it succeeded; what it wrote and what it wrote over (kept in the trash); its
// parameters. Cancel while queued or running; run it again. What it loads and does is JobPage.data.ts.
import { useNavigate, useParams } from '@solidjs/router';
import { createSignal, onCleanup, Show } from 'solid-js';
import type { Job } from '../../../shared/jobs.ts';
import { ArtifactLines } from '../components/job/ArtifactLines.tsx';
import { JobOutputCard } from '../components/job/JobOutputCard.tsx';
import { ParamList } from '../components/job/ParamList.tsx';
import { ReplacedLines } from '../components/job/ReplacedLines.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { useTitle } from '../components/ui/title.ts';
import { AlarmBadge, Button, Card, JobStatusBadge, now, PageHeader } from '../components/ui/ui.tsx';
import { formatDateTime, formatDuration } from '../lib/format.ts';
import { jobRunning } from '../lib/job-status.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { createJobPageData } from './JobPage.data.ts';

/** Kind, when it started and how long it ran (ticking while it runs), exit code and id. */
function JobFacts(props: { job: Job }) {
  const [clock, setClock] = createSignal(Date.now());
  const tick = setInterval(() => jobRunning(props.job) && setClock(Date.now()), 1000);
  onCleanup(() => clearInterval(tick));
  const j = () => props.job;
  return (
    <>
      <span class="badge kind">{j().kind}</span>
      <Show when={j().started_unix_ms !== null} fallback={<span>queued {formatDateTime(j().created_unix_ms)}</span>}>
        <span>started {formatDateTime(j().started_unix_ms!)}</span>
        <span>
          {j().finished_unix_ms === null
            ? `running for ${formatDuration(Math.max(clock(), now()) - j().started_unix_ms!)}`
            : `took ${formatDuration(j().finished_unix_ms! - j().started_unix_ms!)}`}
        </span>
      </Show>
      <Show when={j().exit_code !== null}>
        <span>
          exit code <code>{j().exit_code}</code>
        </span>
      </Show>
      <span class="mono subtle">{j().id}</span>
    </>
  );
}

export default function JobPage() {
  const params = useParams();
  const navigate = useNavigate();
  const id = () => params.id ?? '';
  const data = createJobPageData(id, (next) => navigate(`/jobs/${encodeURIComponent(next.id)}`));
  const job = data.job.data;
  useTitle(() => job()?.title ?? 'Job');
  const running = () => jobRunning(job());
  // A job that writes a file is run again through the form, to change what it writes or let it replace it.
  const rewrites = () => ['learn', 'promote', 'redact'].includes(job()?.kind ?? '');
  const againReason = () => (readOnly() ? READ_ONLY_REASON : 'The job is still running');
  return (
    <div class="page">
      <PageHeader
        back={{ to: '/jobs', label: 'Jobs' }}
        title={
          <>
            {job()?.title ?? id()}{' '}
            <Show when={job()}>
              {(j) => (
                <>
                  <JobStatusBadge status={j().status} /> <AlarmBadge alarm={j().alarm} />
                </>
              )}
            </Show>
          </>
        }
        meta={<Show when={job()}>{(j) => <JobFacts job={j()} />}</Show>}
        actions={
          <Show when={job()}>
            {(j) => (
              <>
                <Show when={running()}>
                  <Button variant="danger" icon="ban" loading={data.cancel.busy()} disabled={readOnly()} reason={READ_ONLY_REASON} onClick={() => void data.cancel.run()}>
                    Cancel
                  </Button>
                </Show>
                <Show
                  when={rewrites()}
                  fallback={
                    <Button icon="retry" loading={data.again.busy()} disabled={readOnly() || running()} reason={againReason()} onClick={() => void data.again.run(j())}>
                      Run again
                    </Button>
                  }
                >
                  <Button icon="retry" to={`/jobs/new?from=${encodeURIComponent(id())}`} disabled={readOnly() || running()} reason={againReason()}>
                    Run again…
                  </Button>
                </Show>
              </>
            )}
          </Show>
        }
      />
      <Loaded resource={data.job} skeleton={8} skeletonHeight={18} notFoundTitle="No such job" errorFrame={(content) => <Card label="Job">{content}</Card>}>
        {(j) => (
          <div class="grid-2 job">
            <JobOutputCard job={j()} report={data.report()} />
            <div class="stack">
              <Card title="What it wrote" testid="job-artifacts">
                <ArtifactLines job={j()} />
              </Card>
              <Show when={j().replaced.length > 0}>
                <Card title="What it replaced">
                  <ReplacedLines replaced={j().replaced} />
                </Card>
              </Show>
              <Card title="Parameters">
                <ParamList params={j().params} defaults={j().defaults} />
              </Card>
            </div>
          </div>
        )}
      </Loaded>
    </div>
  );
}
