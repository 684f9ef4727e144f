// Under the flow's threshold slider: what serving at the slider's threshold would have changed in the newest
// sessions of the flow's domain, asked as the slider moves (a new ask aborts the one in flight).
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import { getFlowWhatIf } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { Icon } from '../../components/ui/Icon.tsx';
import { whatIfSentence } from '../../lib/whatif-words.ts';

/** The sessions changed most that the line links to. */
const LINKED = 3;

export function WhatIfLine(props: { flowKey: string; threshold: number }) {
  const whatIf = createApiResource(
    () => ({ key: props.flowKey, threshold: Math.round(props.threshold * 100) / 100 }),
    (s, signal) => getFlowWhatIf(s.key, s.threshold, { signal }),
    { topics: ['sessions', 'flows'], about: (s) => s.key },
  );
  return (
    <Show when={whatIf.data()}>
      {(w) => (
        <p class="acting" data-testid="whatif" aria-live="polite" classList={{ refreshing: whatIf.refreshing() }}>
          <Icon name="chart" /> In the recorded sessions, {whatIfSentence(w())}
          <Show when={w().changed.length > 0}>
            {' '}(most changed:{' '}
            <For each={w().changed.slice(0, LINKED)}>
              {(c, i) => (
                <>
                  {i() > 0 ? ', ' : ''}
                  <A href={`/sessions/${encodeURIComponent(c.key)}`} class="mono">{c.key}</A> {c.served_then} → {c.served_at}
                </>
              )}
            </For>
            )
          </Show>
          .
        </p>
      )}
    </Show>
  );
}
