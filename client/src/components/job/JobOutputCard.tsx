// A job's output, live while it runs, following the end unless you scroll up; or its Markdown report once
// it succeeded, with a switch between the two and a copy button.
import { createEffect, createSignal, on, Show } from 'solid-js';
import type { Job } from '../../../../shared/jobs.ts';
import { jobRunning } from '../../lib/job-status.ts';
import { Markdown } from '../ui/Markdown.tsx';
import { Button, Card, CopyButton, Segmented } from '../ui/ui.tsx';

export function JobOutputCard(props: { job: Job; report: string | null }) {
  const running = () => jobRunning(props.job);
  // The output terminal follows the end while it grows, unless you scroll up.
  const [follow, setFollow] = createSignal(true);
  let pre: HTMLPreElement | undefined;
  createEffect(
    on(
      () => props.job.output,
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
  const [view, setView] = createSignal<'report' | 'output'>('report');
  const showReport = () => props.report !== null && view() === 'report';
  return (
    <Card
      title={showReport() ? 'Report' : 'Output'}
      caption={showReport() ? 'The report the job wrote, in Markdown' : running() ? 'Live, as the job writes it' : 'stdout and stderr, all of it'}
      actions={
        <>
          <Show when={props.report !== null}>
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
          <Show when={running() && !follow()}>
            <Button size="sm" icon="arrow-down-line" onClick={() => setFollow(true)}>
              Follow
            </Button>
          </Show>
          <CopyButton text={() => (showReport() ? (props.report ?? '') : props.job.output)} what={showReport() ? 'Report' : 'Output'} />
        </>
      }
    >
      <Show
        when={showReport()}
        fallback={
          <>
            <pre class="terminal" tabindex="0" aria-label="Output" data-testid="job-output" ref={pre} onScroll={onScroll}>
              {props.job.output || (running() ? 'Waiting for the job to start…' : 'No output.')}
              <Show when={running()}>
                <span class="cursor" aria-hidden="true" />
              </Show>
            </pre>
            <p class="muted" data-testid="job-output-note">
              As the CLI wrote it: nothing here is masked, so a value the CLI prints is shown.
            </p>
          </>
        }
      >
        <Markdown text={props.report!} shift={1} />
      </Show>
    </Card>
  );
}
