// The New job page's "Runs" card: the command the job would run, as the server's preview plans it, or why
// the server would refuse it.
import { Match, Switch } from 'solid-js';
import type { createJobPreview } from '../../../data/job-preview.ts';
import { Card, CodeBlock, Notice } from '../../ui/ui.tsx';

export function CommandPreview(props: { preview: ReturnType<typeof createJobPreview> }) {
  return (
    <Card title="Runs" caption="The command the job runs, in the data dir, as the console plans it">
      <Switch>
        <Match when={props.preview.refusal()}>
          {(message) => (
            <Notice tone="warn" testid="job-preview-refused">
              The console would refuse this job: {message()}
            </Notice>
          )}
        </Match>
        <Match when={props.preview.last()}>
          {(p) => (
            <div class={props.preview.current().state === 'pending' ? 'refreshing' : undefined}>
              <CodeBlock code={p().command} language="shell" wrap testid="job-command" />
            </div>
          )}
        </Match>
        <Match when={props.preview.current().state === 'none'}>
          <p class="muted">The command shows once the fields above are filled in.</p>
        </Match>
      </Switch>
    </Card>
  );
}
