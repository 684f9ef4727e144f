// The servers list: every registry entry as a card (mode, upstream, flow, sessions, issues), and the
// upstreams seen in recorded sessions' headers, with a way to add the ones the registry lacks.
import '../components/server/server.css';
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { DiscoveredUpstream, ServerView } from '../../../shared/servers.ts';
import { getServers } from '../api/endpoints.ts';
import FlowLink from '../components/server/FlowLink.tsx';
import ServerModeBadge from '../components/server/ServerModeBadge.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { DataTable } from '../components/ui/Table.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Card, Empty, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { upstreamText } from '../lib/server-form.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { domain } from '../stores/domain.ts';

function ServerCard(props: { server: ServerView }) {
  const s = () => props.server;
  const upstream = () => upstreamText(s().upstream);
  return (
    <article class="card server-card" data-testid={`server-${s().name}`}>
      <div class="server-card-head">
        <span class="icon-tile" aria-hidden="true">
          <Icon name={s().upstream.kind === 'http' ? 'compass' : 'terminal'} />
        </span>
        <div class="server-card-title">
          <h2 class="mono">
            <A href={`/servers/${encodeURIComponent(s().name)}`} class="card-link">
              {s().name}
            </A>
          </h2>
          <Show when={s().description}>
            <p class="muted wrap">{s().description}</p>
          </Show>
        </div>
        <ServerModeBadge mode={s().mode} />
      </div>
      <div class="well mono ellipsis" title={upstream()}>
        {upstream()}
      </div>
      <dl class="facts-inline">
        <div>
          <dt>Flow</dt>
          <dd>
            <FlowLink server={s()} />
          </dd>
        </div>
        <div>
          <dt>Sessions</dt>
          <dd>
            <A href={`/sessions?domain=${encodeURIComponent(s().name)}`} class="num">
              {s().sessions}
            </A>
          </dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>
            <RelTime ms={s().last_session_unix_ms} />
          </dd>
        </div>
      </dl>
      <Show when={s().issues.length > 0}>
        <ul class="issues" aria-label="Issues">
          <For each={s().issues}>
            {(issue) => (
              <li>
                <Icon name="warn" size={14} />
                <span class="sr-only">Warning: </span>
                {issue}
              </li>
            )}
          </For>
        </ul>
      </Show>
    </article>
  );
}

function Discovered(props: { items: DiscoveredUpstream[] }) {
  const missing = () => props.items.filter((d) => !d.registered).length;
  const caption = () =>
    props.items.length === 0
      ? 'Servers seen in session headers.'
      : missing() > 0
        ? `Servers seen in session headers. ${missing()} not in the registry: add one to get its configuration and test it.`
        : 'Servers seen in session headers, all in the registry.';
  return (
    <Card title="Discovered upstreams" caption={caption()} flush>
      <DataTable
        stacking
        rows={props.items}
        rowTestId={(d) => `discovered-${d.domain}`}
        empty={
          <Empty compact icon="compass" title="Nothing discovered yet">
            Upstreams appear here from the headers of recorded sessions.
          </Empty>
        }
        columns={[
          { head: 'Domain', class: 'mono', cell: (d) => d.domain },
          { head: 'Upstream', class: 'mono wrap', cell: (d) => upstreamText(d.upstream) },
          { head: 'Sessions', class: 'num', cell: (d) => d.sessions },
          { head: 'Last seen', cell: (d) => <RelTime ms={d.last_seen_unix_ms} /> },
          {
            head: <span class="sr-only">Action</span>,
            label: 'Action',
            cell: (d) => (
              <Show when={!d.registered} fallback={<span class="badge">registered</span>}>
                <Button size="sm" icon="plus" to={`/servers/new?domain=${encodeURIComponent(d.domain)}`} disabled={readOnly()} reason={READ_ONLY_REASON}>
                  Add
                </Button>
              </Show>
            ),
          },
        ]}
      />
    </Card>
  );
}

export default function ServersPage() {
  useTitle(() => 'Servers');
  const servers = createApiResource(() => ({}), (_s, signal) => getServers({ signal }), { topics: ['servers', 'sessions', 'flows'] });
  const shown = () => (servers.data()?.items ?? []).filter((s) => domain() === null || s.name === domain());
  const addLink = () => (domain() ? `/servers/new?domain=${encodeURIComponent(domain()!)}` : '/servers/new');
  return (
    <div class="page">
      <PageHeader
        title="Servers"
        sub="The MCP servers engine fronts. Each runs behind engine-proxy in your host, which records its sessions and serves its flow."
        actions={
          <Button variant="primary" icon="plus" to={addLink()} disabled={readOnly()} reason={READ_ONLY_REASON}>
            Add a server
          </Button>
        }
      />
      <Loaded
        resource={servers}
        errorFrame={(content) => <div class="card">{content}</div>}
        skeleton={
          <div class="cards-2">
            <div class="card"><Skeleton lines={4} /></div>
            <div class="card"><Skeleton lines={4} /></div>
          </div>
        }
      >
        {(list) => (
          <div class="stack" classList={{ refreshing: servers.refreshing() }}>
            <Show
              when={shown().length > 0}
              fallback={
                <div class="card">
                  <Empty
                    icon="server"
                    heading="h2"
                    title={domain() ? `No server named ${domain()}` : 'No servers yet'}
                    actions={
                      <Button variant="primary" icon="plus" to={addLink()} disabled={readOnly()} reason={READ_ONLY_REASON}>
                        Add a server
                      </Button>
                    }
                  >
                    Add the MCP server your agent uses. The console gives you your host’s configuration, with engine-proxy in front: use
                    your agent through it, then learn a flow.
                  </Empty>
                </div>
              }
            >
              <div class="cards-2">
                <For each={shown()}>{(s) => <ServerCard server={s} />}</For>
              </div>
            </Show>
            <Discovered items={list().discovered} />
          </div>
        )}
      </Loaded>
    </div>
  );
}
