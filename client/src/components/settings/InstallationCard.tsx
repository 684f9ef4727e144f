// What the console runs with: its version, each engine binary (where it is and its version) and whether a
// Jev key is set (never its value).
import { For, Show } from 'solid-js';
import type { Settings } from '../../../../shared/settings.ts';
import { Icon } from '../ui/Icon.tsx';
import { Card } from '../ui/ui.tsx';

/** What a missing binary stops: jobs run the CLI alone; agent hosts run the proxy, from their configs. */
const MISSING: Record<string, string> = {
  engine: 'not found: jobs run it, so they fail until it is installed',
  'engine-proxy': 'not found here: no job runs it, but the host configs name it, so install it where your agents run',
};

export function InstallationCard(props: { settings: Settings }) {
  const s = () => props.settings;
  return (
    <Card title="Installation">
      <ul class="binaries">
        <li>
          <strong>Console</strong> <span class="mono">{s().version}</span>
        </li>
        <For each={s().binaries}>
          {(b) => (
            <li>
              <span class="mono">{b.name}</span>{' '}
              <Show when={b.path} fallback={<small class="missing">{MISSING[b.name] ?? 'not found beside the console or on its PATH; no job runs it'}</small>}>
                <span class="mono">{b.version === null ? "no --version" : b.version.replace(`${b.name} `, "")}</span>
                <small>{b.path}</small>
              </Show>
            </li>
          )}
        </For>
        <li>
          <strong>Jev key</strong>{' '}
          <Show when={s().key_set} fallback={<span class="badge">not set</span>}>
            <span class="badge accent">
              <Icon name="key" size={12} /> set
            </span>
          </Show>
          <small style={{ 'font-family': 'var(--font)' }}>
            TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE, in the console’s environment; its value is never read. Flows served with reach or the habit need none.
          </small>
        </li>
      </ul>
    </Card>
  );
}
