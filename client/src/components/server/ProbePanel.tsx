// The connection test: start the server (or reach its URL), initialize, list its tools, as the proxy would,
// within 15 s. Shows who answered, the tools with their kinds, and what they say against the server's flow.
import { createSignal, For, Show } from 'solid-js';
import type { ProbeResult } from '../../../../shared/servers.ts';
import type { ApiError } from '../../api/client.ts';
import { probeServer } from '../../api/endpoints.ts';
import { formatDuration } from '../../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Button, Notice, RichText } from '../ui/ui.tsx';
import ToolsTable from './ToolsTable.tsx';

/** Instructions longer than this fold away under a disclosure. */
const SHORT = 160;

export default function ProbePanel(props: { name: string; headers?: { name: string; env: string }[] }) {
  const [busy, setBusy] = createSignal(false);
  // One-off header values live in this component only: sent with one test, never stored or shown back.
  const [oneOff, setOneOff] = createSignal<Record<string, string>>({});
  const given = () => Object.fromEntries(Object.entries(oneOff()).filter(([, value]) => value !== ''));
  const [result, setResult] = createSignal<ProbeResult | null>(null);
  const [failure, setFailure] = createSignal<string | null>(null);
  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      setResult(await probeServer(props.name, given()));
    } catch (e) {
      setResult(null);
      setFailure((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const kinds = () => {
    const r = result();
    if (!r) return '';
    const writes = r.tools.filter((t) => t.kind === 'write').length;
    const reads = r.tools.filter((t) => t.kind === 'read').length;
    return `${reads} read, ${writes} write, ${r.tools.length - reads - writes} neither`;
  };
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
      <Button variant="primary" icon="plug" testid="probe" loading={busy()} disabled={readOnly()} reason={READ_ONLY_REASON} onClick={() => void run()}>
        Test connection
      </Button>
      <div aria-live="polite" class="probe-result">
        <Show when={failure()}>
          <Notice tone="danger" role="alert">
            {failure()}
          </Notice>
        </Show>
        <Show when={result()}>
          {(r) => (
            <>
              <Show
                when={r().ok}
                fallback={
                  <>
                    <Notice tone="danger" testid="probe-failed">
                      Could not connect ({formatDuration(r().ms)}): {r().error}
                    </Notice>
                    <Show when={r().stderr_tail}>
                      {(tail) => (
                        <details class="probe-stderr" open>
                          <summary>What the server wrote to stderr, its last lines</summary>
                          <pre class="wrap" tabindex="0" data-testid="probe-stderr">
                            {tail()}
                          </pre>
                        </details>
                      )}
                    </Show>
                  </>
                }
              >
                <Notice tone="accent" testid="probe-ok">
                  Connected in {formatDuration(r().ms)}:{' '}
                  <strong>
                    {r().server_name ?? 'a server with no name'} {r().server_version ?? ''}
                  </strong>
                  , protocol <code>{r().protocol_version ?? 'unknown'}</code>, {r().tools.length} {r().tools.length === 1 ? 'tool' : 'tools'} (
                  {kinds()}).
                  <Show when={(r().instructions ?? '').length > 0 && (r().instructions ?? '').length <= SHORT}>
                    <span class="probe-instructions"> Its instructions: “{r().instructions}”</span>
                  </Show>
                </Notice>
                <Show when={(r().instructions ?? '').length > SHORT}>
                  <details class="probe-instructions-long">
                    <summary>Its instructions ({r().instructions!.length.toLocaleString('en-US')} characters)</summary>
                    <pre class="wrap" tabindex="0">{r().instructions}</pre>
                  </details>
                </Show>
              </Show>
              <For each={r().flow_warnings}>
                {(w) => (
                  <Notice tone="warn" role="status">
                    <RichText text={w} />
                  </Notice>
                )}
              </For>
              <Show when={r().ok && r().tools.length > 0}>
                <ToolsTable tools={r().tools} />
              </Show>
            </>
          )}
        </Show>
      </div>
    </div>
  );
}
