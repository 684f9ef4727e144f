// The connection test: start the server (or reach its URL), initialize, list its tools, as the proxy would,
// within 15 s. The page hands in the test itself; this panel asks for one-off header values and shows the
// answer (ProbeResultView).
import { createSignal, For, Show } from 'solid-js';
import type { HeaderRef, ProbeResult } from '../../../../shared/servers.ts';
import type { Action } from '../../data/createAction.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Button, Notice } from '../ui/ui.tsx';
import { ProbeResultView } from './ProbeResultView.tsx';

type ProbeAction = Action<[env: Record<string, string>], ProbeResult>;

export default function ProbePanel(props: { headers?: HeaderRef[]; probe: ProbeAction }) {
  // One-off header values live in this component only: sent with one test, never stored or shown back.
  const [oneOff, setOneOff] = createSignal<Record<string, string>>({});
  const given = () => Object.fromEntries(Object.entries(oneOff()).filter(([, value]) => value !== ''));
  const [result, setResult] = createSignal<ProbeResult | null>(null);
  const run = async () => setResult((await props.probe.run(given())) ?? null);
  return (
    <div class="probe">
      <p>
        Starts the server’s command with a 15 s limit, or reaches its URL with the named headers, then lists its tools, as the proxy
        would.
      </p>
      <Show when={(props.headers ?? []).length > 0}>
        <details class="probe-one-off" data-testid="probe-one-off">
          <summary>Test with values typed here</summary>
          <p class="field-hint">
            For a header whose variable is not set in the console’s environment. A value is sent with the next test only: it is not
            stored, logged or shown back.
          </p>
          <For each={props.headers ?? []}>
            {(h) => (
              <div class="field">
                <label for={`probe-value-${h.env}`}>
                  {h.name} from <code>{h.env}</code>
                </label>
                <input
                  id={`probe-value-${h.env}`}
                  type="password"
                  class="mono"
                  autocomplete="off"
                  spellcheck={false}
                  value={oneOff()[h.env] ?? ''}
                  onInput={(e) => setOneOff({ ...oneOff(), [h.env]: e.currentTarget.value })}
                />
              </div>
            )}
          </For>
        </details>
      </Show>
      <Button variant="primary" icon="plug" testid="probe" loading={props.probe.busy()} disabled={readOnly()} reason={READ_ONLY_REASON} onClick={() => void run()}>
        Test connection
      </Button>
      <div aria-live="polite" class="probe-result">
        <Show when={props.probe.error()}>
          <Notice tone="danger" role="alert">
            {props.probe.error()}
          </Notice>
        </Show>
        <Show when={result()}>{(r) => <ProbeResultView result={r()} />}</Show>
      </div>
    </div>
  );
}
