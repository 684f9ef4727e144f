// The next steps engine init prints, folded away, and the steps that are jobs as links to run them here (the
// note on their ~/.engine paths is beside the snippet: HostSetupNotes.tsx).
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { StepJob } from '../../lib/server-view.ts';

export function NextSteps(props: { text: string; jobs: StepJob[] }) {
  return (
    <details class="next-steps">
      <summary>Next steps from here</summary>
      <pre class="wrap">{props.text}</pre>
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
