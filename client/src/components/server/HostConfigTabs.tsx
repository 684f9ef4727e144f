// What `engine init` prints for each MCP host, with engine-proxy in front of the server: a tab per host (the
// choice is kept in localStorage), the snippet with a copy button, where it goes, the variables the host
// must hold, and the next steps.
import { createSignal, For, Show } from 'solid-js';
import { HOSTS, type Host } from '../../../../shared/servers.ts';
import { getServerConfig } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { TabPanel, Tabs, type TabDef } from '../ui/Tabs.tsx';
import { CodeBlock, ErrorState, Notice, RichText, Skeleton } from '../ui/ui.tsx';

const KEY = 'engine-console:host';
const TABS: TabDef<Host>[] = [
  { id: 'claude-code', label: 'Claude Code' },
  { id: 'claude-desktop', label: 'Claude Desktop' },
  { id: 'cursor', label: 'Cursor' },
  { id: 'vscode', label: 'VS Code' },
];

function storedHost(): Host {
  try {
    const h = localStorage.getItem(KEY);
    return (HOSTS as readonly string[]).includes(h ?? '') ? (h as Host) : 'claude-code';
  } catch {
    return 'claude-code';
  }
}

export default function HostConfigTabs(props: { name: string; env: string[] }) {
  const [host, setHost] = createSignal<Host>(storedHost());
  const choose = (h: Host) => {
    setHost(h);
    try {
      localStorage.setItem(KEY, h);
    } catch {
      /* kept for this page only */
    }
  };
  const config = createApiResource(
    () => ({ name: props.name, host: host() }),
    (s, signal) => getServerConfig(s.name, s.host, { signal }),
    { topics: ['servers', 'flows'] },
  );
  return (
    <>
      <Tabs prefix="host" label="Hosts" tabs={TABS} value={host()} onChange={choose} />
      <TabPanel prefix="host" id={host()}>
        <Show when={!config.error()} fallback={<ErrorState error={config.error()!} retry={config.refetch} />}>
          <Show when={!config.loading() && config.data()} fallback={<Skeleton lines={4} />}>
            {(c) => (
              <div class="host-config" classList={{ refreshing: config.refreshing() }}>
                <CodeBlock code={c().snippet} language={c().language} wrap what="Configuration" testid="host-snippet" />
                <p class="placement">
                  <RichText text={c().placement} />
                </p>
                <Show when={props.env.length > 0}>
                  <Notice tone="info" role="status">
                    The server needs {props.env.length === 1 ? 'the variable' : 'these variables'}{' '}
                    <For each={props.env}>
                      {(name, i) => (
                        <>
                          {i() > 0 ? ', ' : ''}
                          <code>{name}</code>
                        </>
                      )}
                    </For>{' '}
                    in the host’s environment for the server (its <code>env</code>). The console stores names only, never values.
                  </Notice>
                </Show>
                <details class="next-steps">
                  <summary>Next steps from here</summary>
                  <pre class="wrap">{c().next_steps}</pre>
                </details>
              </div>
            )}
          </Show>
        </Show>
      </TabPanel>
    </>
  );
}
