// The flows list: one card per *.flow.json in the data dir, the ones that do not load included (with why),
// scoped by the top bar's domain filter. Each card links to its flow page.
import '../components/flow/flow.css';
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { FlowSummary } from '../../../shared/flows.ts';
import { getFlows } from '../api/endpoints.ts';
import { Icon } from '../components/ui/Icon.tsx';
import { Button, Empty, ErrorState, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { formatBytes } from '../lib/format.ts';
import { deciderTitle, learnedLine, stageBadge, toolCountsText } from '../lib/flow-words.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { domain } from '../stores/domain.ts';

export function FlowCard(props: { flow: FlowSummary }) {
  const f = () => props.flow;
  const broken = () => f().error !== null;
  const badge = () => stageBadge(f().stage);
  return (
    <article class="card flow-card" classList={{ 'flow-card-broken': broken() }} data-testid={`flow-${f().key}`}>
      <div class="flow-card-head">
        <h2 class="flow-card-title mono">
          <Show when={!broken()} fallback={<span>{f().key}</span>}>
            <A href={`/flows/${encodeURIComponent(f().key)}`} class="card-link">
              {f().key}
            </A>
          </Show>
        </h2>
        <div class="badges">
          <Show when={!broken()}>
            <span class="badge mono" title={deciderTitle(f().decider)}>
              {f().decider}
            </span>
          </Show>
          <Show when={f().promoted}>
            {(p) => (
              <span class="badge accent" title={`Acts at ${p().sites_promoted} of the ${p().sites_scored} sites promote scored`}>
                promoted {p().sites_promoted}/{p().sites_scored}
              </span>
            )}
          </Show>
          <Show when={badge()}>
            {(b) => (
              <span class="badge" classList={{ accent: b().accent, dashed: !b().accent }} title={b().title} data-testid={`staged-${f().key}`}>
                {b().word}
              </span>
            )}
          </Show>
        </div>
      </div>
      <p class="caption mono wrap">
        {f().path} · {formatBytes(f().size_bytes)}
      </p>
      <Show
        when={!broken()}
        fallback={
          <div class="notice notice-danger" role="status">
            <Icon name="circle-alert" />
            <div>This file does not load: {f().error}</div>
          </div>
        }
      >
        <p class="flow-card-learned">
          <span class="chip mono">{f().domain}</span> {learnedLine(f())}
        </p>
        <dl class="facts-inline">
          <div>
            <dt>Sites</dt>
            <dd class="num">{f().sites}</dd>
          </div>
          <div>
            <dt>Lookups</dt>
            <dd class="num">{f().lookups}</dd>
          </div>
          <div>
            <dt>Tools</dt>
            <dd class="num">{toolCountsText(f().tools)}</dd>
          </div>
        </dl>
      </Show>
      <div class="flow-card-foot">
        <span>
          <Icon name="server" size={14} />{' '}
          <Show when={f().served_by.length > 0} fallback={<span class="muted">No server runs it</span>}>
            Served by{' '}
            <For each={f().served_by}>
              {(name, i) => (
                <>
                  {i() > 0 ? ', ' : ''}
                  <A href={`/servers/${encodeURIComponent(name)}`} class="mono">
                    {name}
                  </A>
                </>
              )}
            </For>
          </Show>
        </span>
        <span class="muted">
          modified <RelTime ms={f().modified_unix_ms} />
        </span>
      </div>
    </article>
  );
}

export default function FlowsPage() {
  useTitle(() => 'Flows');
  const flows = createApiResource(() => ({}), (_s, signal) => getFlows({ signal }), { topics: ['flows', 'servers'] });
  const shown = () => {
    const d = domain();
    return (flows.data()?.items ?? []).filter((f) => d === null || f.error !== null || f.domain === d);
  };
  const learnLink = () => (domain() ? `/jobs/new?kind=learn&domain=${encodeURIComponent(domain()!)}` : '/jobs/new?kind=learn');
  return (
    <div class="page">
      <PageHeader
        title="Flows"
        sub="A flow is a JSON file of counts and bindings: which reads follow which calls, and where their arguments come from."
        actions={
          <Button variant="primary" icon="sparkles" to={learnLink()} disabled={readOnly()} reason={READ_ONLY_REASON}>
            Learn a flow
          </Button>
        }
      />
      <Show when={!flows.error()} fallback={<div class="card"><ErrorState error={flows.error()!} retry={flows.refetch} /></div>}>
        <Show
          when={!flows.loading() && flows.data()}
          fallback={
            <div class="cards-2">
              <For each={[1, 2, 3, 4]}>{() => <div class="card"><Skeleton lines={4} /></div>}</For>
            </div>
          }
        >
          <Show
            when={shown().length > 0}
            fallback={
              <div class="card">
                <Empty
                  icon="flow"
                  heading="h2"
                  title={domain() ? `No flows for ${domain()}` : 'No flows yet'}
                  actions={
                    <Button variant="primary" icon="sparkles" to={learnLink()} disabled={readOnly()} reason={READ_ONLY_REASON}>
                      Learn a flow
                    </Button>
                  }
                >
                  Add a server, use your agent through it, then learn a flow from its recorded sessions. Learning with
                  --habit-only needs no key.
                </Empty>
              </div>
            }
          >
            <div class="cards-2" classList={{ refreshing: flows.refreshing() }}>
              <For each={shown()}>{(f) => <FlowCard flow={f} />}</For>
            </div>
          </Show>
        </Show>
      </Show>
    </div>
  );
}
