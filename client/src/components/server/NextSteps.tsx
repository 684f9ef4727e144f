// The next steps engine init prints, folded away; a note when this console serves another data directory
// than the one they name, and the steps that are jobs as links to run them here.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { StepJob } from '../../lib/server-view.ts';
import { Notice } from '../ui/ui.tsx';

export function NextSteps(props: { text: string; dataDirShown: string; jobs: StepJob[] }) {
  return (
    <details class="next-steps">
      <summary>Next steps from here</summary>
      <pre class="wrap">{props.text}</pre>
      <Show when={props.dataDirShown !== '~/.engine'}>
        <Notice tone="warn" role="status" testid="data-dir-note">
          These are the commands engine init prints, with its paths under <code>~/.engine</code>. This console serves{' '}
          <code class="wrap">{props.dataDirShown}</code>: a flow written under <code>~/.engine</code> will not appear here. Put{' '}
          <code class="wrap">{props.dataDirShown}</code> in place of <code>~/.engine</code> in each path, or run the step as a job
          below, which works in this data directory.
        </Notice>
      </Show>
      <Show when={props.jobs.length > 0}>
        <p class="step-jobs">
          Run it here, as a job over this console’s data directory:{' '}
          <For each={props.jobs}>
            {(j, i) => (
              <>
                {i() > 0 ? ' · ' : ''}
                <A href={j.href} data-testid={`step-job-${j.kind}`}>
                  {j.label}
                </A>
              </>
            )}
          </For>
        </p>
      </Show>
    </details>
  );
}
