// What `engine init` prints for each MCP host, with engine-proxy in front of the server: a tab per host, the
// snippet with a copy button, where it goes, the variables the host must hold, and the next steps. The page
// loads the configuration of the tab chosen (ServerPage.data.ts) and hands it in.
import { For, Show } from 'solid-js';
import type { HostConfig, Host } from '../../../../shared/servers.ts';
import type { ApiResource } from '../../data/createApiResource.ts';
import type { StepJob } from '../../lib/server-view.ts';
import { Loaded } from '../ui/Loaded.tsx';
import { TabPanel, Tabs, type TabDef } from '../ui/Tabs.tsx';
import { CodeBlock, Notice, RichText } from '../ui/ui.tsx';
import { HostSetupNotes } from './HostSetupNotes.tsx';
import { NextSteps } from './NextSteps.tsx';

const TABS: TabDef<Host>[] = [
  { id: 'claude-code', label: 'Claude Code' },
  { id: 'claude-desktop', label: 'Claude Desktop' },
  { id: 'cursor', label: 'Cursor' },
  { id: 'vscode', label: 'VS Code' },
];

export default function HostConfigTabs(props: {
  host: Host;
  onHost: (host: Host) => void;
  config: ApiResource<HostConfig>;
  /** Variables the server or the proxy reads: the stdio server's env, or the HTTP headers' variables. */
  env: string[];
  /** The console's data directory as the CLI would show it (`~/.engine` in its usual place). */
  dataDirShown: string;
  /** Whether the console found no engine-proxy (Health's "not found"). */
  proxyMissing: boolean;
  /** The next steps that are jobs, to run here. */
  jobs: StepJob[];
}) {
  return (
    <>
      <Tabs prefix="host" label="Hosts" tabs={TABS} value={props.host} onChange={props.onHost} />
      <TabPanel prefix="host" id={props.host}>
        <Loaded resource={props.config}>
          {(c) => (
            <div class="host-config" classList={{ refreshing: props.config.refreshing() }}>
              <CodeBlock code={c().snippet} language={c().language} wrap what="Configuration" testid="host-snippet" />
              <HostSetupNotes proxyNote={c().proxy_note} proxyMissing={props.proxyMissing} dataDirShown={props.dataDirShown} />
              <p class="placement">
                <RichText text={c().placement} />
              </p>
              <Show when={props.host === 'claude-desktop' && props.env.length > 0 && c().snippet.includes('"command"')}>
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
              <NextSteps text={c().next_steps} jobs={props.jobs} />
            </div>
          )}
        </Loaded>
      </TabPanel>
    </>
  );
}
