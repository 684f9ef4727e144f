// Under the flow's threshold slider: which threshold the page shows, and the one each server that runs this
// flow uses, with a button to read the flow at it.
import { For, Show } from 'solid-js';
import { FLOW_THRESHOLD_DEFAULT } from '../../../../shared/limits.ts';
import { Button } from '../../components/ui/ui.tsx';
import type { Serving } from './serving.ts';

const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;

export function ServingThreshold(props: { serving: Serving[]; threshold: number; onThreshold: (t: number) => void }) {
  return (
    <div class="serving" data-testid="serving-threshold">
      <Show
        when={props.serving.length > 0}
        fallback={
          <p class="caption">
            No registered server runs this flow. Shown at {props.threshold.toFixed(2)}
            {same(props.threshold, FLOW_THRESHOLD_DEFAULT) ? ', the proxy’s default (--flow-threshold).' : '.'}
          </p>
        }
      >
        <ul class="serving-list">
          <For each={props.serving}>
            {(s) => (
              <li data-testid={`serving-${s.server}`}>
                Server <strong class="mono">{s.server}</strong> {s.mode === 'serve' ? 'serves' : 'runs in shadow'} this flow at{' '}
                <strong>{s.threshold.toFixed(2)}</strong>
                {s.set ? ' (its threshold in the registry)' : ' (the proxy’s default: its entry sets none)'}
                <Show when={same(s.threshold, props.threshold)} fallback={<>. </>}>
                  : the threshold shown here.
                </Show>
                <Show when={!same(s.threshold, props.threshold)}>
                  <Button size="sm" testid={`serving-use-${s.server}`} onClick={() => props.onThreshold(s.threshold)}>
                    Show at {s.threshold.toFixed(2)}
                  </Button>
                </Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}
