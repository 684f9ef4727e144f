// One job: its status and output, live while it runs (job events, plus a poll every 2.5 s in case the
// stream is down), following the end of the output unless you scroll up; its report rendered once it
// succeeded; what it wrote; its parameters. Cancel while queued or running; run it again.
import { useNavigate, useParams } from '@solidjs/router';
import { createEffect, createSignal, Match, on, onCleanup, Show, Switch } from 'solid-js';
import * as v from 'valibot';
import { JobRequestSchema, type Job } from '../../../shared/jobs.ts';
import { cancelJob, createJob, getJob, getJobArtifact } from '../api/endpoints.ts';
import { onJob } from '../api/events.ts';
import { ArtifactLines, ParamList } from '../components/job/parts.tsx';
import { Markdown } from '../components/ui/Markdown.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, CopyButton, ErrorState, JobStatusBadge, now, PageHeader, Segmented, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { formatDateTime, formatDuration } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { jobSeen } from '../stores/jobs.ts';
import { toast } from '../stores/toasts.ts';
import { errorText } from '../../../shared/error-text.ts';

const running = (j: Job | undefined) => j !== undefined && (j.status === 'queued' || j.status === 'running');

export default function JobPage() {
  const params = useParams();
  const navigate = useNavigate();
  const id = () => params.id ?? '';
  const res = createApiResource(id, (x, signal) => getJob(x, { signal }), { topics: ['jobs'], key: (x) => x });
  const [job, setJob] = createSignal<Job | undefined>(undefined);
  useTitle(() => job()?.title ?? 'Job');

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
    if (running(job())) res.refresh();
  }, 2500);
  const [clock, setClock] = createSignal(Date.now());
  const tick = setInterval(() => running(job()) && setClock(Date.now()), 1000);
  onCleanup(() => clearInterval(tick));
  onCleanup(() => clearInterval(poll));

  // The output terminal follows the end while it grows, unless you scroll up.
  const [follow, setFollow] = createSignal(true);
  let pre: HTMLPreElement | undefined;
  createEffect(
    on(
      () => job()?.output,
      () => {
        if (follow() && pre) queueMicrotask(() => pre && (pre.scrollTop = pre.scrollHeight));
      },
    ),
  );
  const onScroll = () => {
    if (!pre) return;
    const fromBottom = pre.scrollHeight - pre.scrollTop - pre.clientHeight;
    if (fromBottom > 24) setFollow(false);
    else if (!follow() && fromBottom <= 2) setFollow(true);
  };

  // The Markdown report, once the job succeeded.
  const reportIndex = () => {
    const j = job();
    if (!j || j.status !== 'succeeded') return -1;
    return j.artifacts.findIndex((a) => a.kind === 'report' && a.path.endsWith('.md'));
  };
  const [report, setReport] = createSignal<string | null>(null);
  createEffect(
    on(reportIndex, (i) => {
      if (i < 0) return;
      getJobArtifact(id(), i).then(setReport, () => setReport(null));
    }),
  );
  const [view, setView] = createSignal<'report' | 'output'>('report');
  const showReport = () => report() !== null && view() === 'report';

  const [cancelling, setCancelling] = createSignal(false);
  const cancel = async () => {
    setCancelling(true);
    try {
      const j = await cancelJob(id());
      setJob(j);
      jobSeen(j);
    } catch (e) {
      toast({ kind: 'error', title: 'Could not cancel the job', message: errorText(e) });
    } finally {
      setCancelling(false);
    }
  };
  const rewrites = () => ['learn', 'promote', 'redact'].includes(job()?.kind ?? '');
  const [again, setAgain] = createSignal(false);
  const runAgain = async () => {
    const j = job();
    if (!j) return;
    const body = v.safeParse(JobRequestSchema, j.params);
    if (!body.success) {
      toast({ kind: 'error', title: 'The job did not start', message: 'Its parameters are not a job request.' });
      return;
    }
    setAgain(true);
    try {
      const next = await createJob(body.output);
      navigate(`/jobs/${encodeURIComponent(next.id)}`);
    } catch (e) {
      toast({ kind: 'error', title: 'The job did not start', message: errorText(e) });
    } finally {
      setAgain(false);
    }
  };

  const meta = () => {
    const j = job();
    if (!j) return null;
    return (
      <>
        <span class="badge kind">{j.kind}</span>
        <Show when={j.started_unix_ms !== null} fallback={<span>queued {formatDateTime(j.created_unix_ms)}</span>}>
          <span>started {formatDateTime(j.started_unix_ms!)}</span>
          <span>{j.finished_unix_ms === null ? `running for ${formatDuration(Math.max(clock(), now()) - j.started_unix_ms!)}` : `took ${formatDuration(j.finished_unix_ms - j.started_unix_ms!)}`}</span>
        </Show>
        <Show when={j.exit_code !== null}>
          <span>
            exit code <code>{j.exit_code}</code>
          </span>
        </Show>
        <span class="mono subtle">{j.id}</span>
      </>
    );
  };

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/jobs', label: 'Jobs' }}
        title={
          <>
            {job()?.title ?? id()}{' '}
            <Show when={job()}>
              <JobStatusBadge status={job()!.status} />
            </Show>
          </>
        }
        meta={meta()}
        actions={
          <Show when={job()}>
            <Show when={running(job())}>
              <Button variant="danger" icon="ban" loading={cancelling()} disabled={readOnly()} reason={READ_ONLY_REASON} onClick={() => void cancel()}>
                Cancel
              </Button>
            </Show>
            <Show
              when={rewrites()}
              fallback={
                <Button icon="retry" loading={again()} disabled={readOnly() || running(job())} reason={readOnly() ? READ_ONLY_REASON : 'The job is still running'} onClick={() => void runAgain()}>
                  Run again
                </Button>
              }
            >
              <Button icon="retry" to={`/jobs/new?from=${encodeURIComponent(id())}`} disabled={readOnly() || running(job())} reason={readOnly() ? READ_ONLY_REASON : 'The job is still running'}>
                Run again…
              </Button>
            </Show>
          </Show>
        }
      />
      <Switch>
        <Match when={res.error() && !job()}>
          <Card label="Job">
            <ErrorState error={res.error()!} notFoundTitle="No such job" retry={res.refetch} />
          </Card>
        </Match>
        <Match when={!job()}>
          <Skeleton lines={8} height={18} />
        </Match>
        <Match when={job()}>
          <div class="grid-2 job">
            <Card
              title={showReport() ? 'Report' : 'Output'}
              caption={showReport() ? 'The report the job wrote, in Markdown' : running(job()) ? 'Live, as the job writes it' : 'stdout and stderr, the last 64 KiB in lists'}
              actions={
                <>
                  <Show when={report() !== null}>
                    <Segmented
                      label="Show"
                      value={view()}
                      onChange={setView}
                      options={[
                        { value: 'report', label: 'Report' },
                        { value: 'output', label: 'Output' },
                      ]}
                    />
                  </Show>
                  <Show when={running(job()) && !follow()}>
                    <Button size="sm" icon="arrow-down-line" onClick={() => setFollow(true)}>
                      Follow
                    </Button>
                  </Show>
                  <CopyButton text={() => (showReport() ? (report() ?? '') : (job()?.output ?? ''))} what={showReport() ? 'Report' : 'Output'} />
                </>
              }
            >
              <Show
                when={showReport()}
                fallback={
                  <pre class="terminal" tabindex="0" aria-label="Output" data-testid="job-output" ref={pre} onScroll={onScroll}>
                    {job()!.output || (running(job()) ? 'Waiting for the job to start…' : 'No output.')}
                    <Show when={running(job())}>
                      <span class="cursor" aria-hidden="true" />
                    </Show>
                  </pre>
                }
              >
                <Markdown text={report()!} shift={1} />
              </Show>
            </Card>
            <div class="stack">
              <Card title="What it wrote" testid="job-artifacts">
                <ArtifactLines job={job()!} />
              </Card>
              <Card title="Parameters">
                <ParamList params={job()!.params} />
              </Card>
            </div>
          </div>
        </Match>
      </Switch>
    </div>
  );
}
