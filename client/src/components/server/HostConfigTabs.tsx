// What `engine init` prints for each MCP host, with engine-proxy in front of the server: a tab per host (the
// choice is kept in localStorage), the snippet with a copy button, where it goes, the variables the host
// must hold, and the next steps.
import { createSignal, For, Show } from 'solid-js';
import { HOSTS, type Host } from '../../../../shared/servers.ts';
import { getServerConfig } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { TabPanel, Tabs, type TabDef } from '../ui/Tabs.tsx';
import { A } from '@solidjs/router';
import type { StepJob } from '../../lib/server-view.ts';
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

export default function HostConfigTabs(props: {
  name: string;
  /** Variables the server or the proxy reads: the stdio server's env, or the HTTP headers' variables. */
  env: string[];
  /** The console's data directory as the CLI would show it (`~/.engine` in its usual place). */
  dataDirShown: string;
  /** The next steps that are jobs, to run here. */
  jobs: StepJob[];
}) {
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
                <Show when={host() === 'claude-desktop' && props.env.length > 0 && c().snippet.includes('"command"')}>
                  <Notice tone="info" role="status" testid="desktop-env-note">
                    Claude Desktop gives a server only the variables listed in its entry’s <code>env</code>, and engine init leaves that
                    block out (the configuration above is exactly what it prints). Add it beside <code>"args"</code>, with your values:{' '}
                    <code class="wrap">
                      "env": {'{'} {props.env.map((n) => `"${n}": "…"`).join(', ')} {'}'}
                    </code>
                    . The console never stores the values.
                  </Notice>
                </Show>
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
              </div>
            )}
          </Show>
        </Show>
      </TabPanel>
    </>
  );
}
