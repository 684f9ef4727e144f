// The flows list: one card per *.flow.json in the data dir, the ones that do not load included (with why),
// scoped by the top bar's domain filter (a file that does not load names no domain: it shows under a domain
// only when its name starts with it). Each card links to its flow page. Committed versions in
// <name>.history/ are not flows of their own here: they are listed under their flow.
import '../components/flow/flow.css';
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { FlowSummary } from '../../../shared/flows.ts';
import { getFlows } from '../api/endpoints.ts';
import { Icon } from '../components/ui/Icon.tsx';
import { Term } from '../components/ui/Term.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Empty, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { flowHref } from '../lib/flow-address.ts';
import { formatBytes } from '../lib/format.ts';
import { deciderTitle, learnedLine, stageBadge, toolCountsText } from '../lib/flow-words.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { domain } from '../stores/domain.ts';

/** The versions of each flow in its <name>.history/, by the flow's key, the latest first. */
function versionsByFlow(items: readonly FlowSummary[]): Map<string, FlowSummary[]> {
  const out = new Map<string, FlowSummary[]>();
  for (const f of items) {
    const of = f.version_of?.flow;
    if (!of) continue;
    out.set(of, [...(out.get(of) ?? []), f]);
  }
  for (const list of out.values()) list.sort((a, b) => (b.version_of?.version ?? 0) - (a.version_of?.version ?? 0));
  return out;
}

/** A file that does not load, under a chosen domain: shown when its name is the domain's or starts with it. */
const brokenNamesDomain = (f: FlowSummary, d: string) => f.name === d || f.name.startsWith(`${d}.`);

function Versions(props: { flowKey: string; versions: FlowSummary[] }) {
  return (
    <details class="flow-versions" data-testid={`versions-of-${props.flowKey}`}>
      <summary>
        {props.versions.length === 1 ? '1 committed version' : `${props.versions.length} committed versions`} in <span class="mono">{props.flowKey}.history/</span>
      </summary>
      <ul>
        <For each={props.versions}>
          {(v) => (
            <li>
              <A href={flowHref(v)} class="mono">
                v{v.version_of!.version}
              </A>{' '}
              <span class="muted">
                modified <RelTime ms={v.modified_unix_ms} />
              </span>
            </li>
          )}
        </For>
      </ul>
      <A href={`/flows/${encodeURIComponent(props.flowKey)}?tab=staged`}>Staged › Versions, with rollback</A>
    </details>
  );
}

/** `explain`: where a word first appears in the list, a "?" beside it opens the glossary's definition. */
function FlowCard(props: { flow: FlowSummary; versions?: FlowSummary[]; explain?: { decider: boolean; promoted: boolean } }) {
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
            <Show when={props.explain?.decider}>
              <Term word={f().decider}>
                <span class="sr-only">decider</span>
              </Term>
            </Show>
          </Show>
          <Show when={f().promoted}>
            {(p) => (
              <span class="badge accent" title={`Acts at ${p().sites_promoted} of the ${p().sites_scored} sites promote scored`}>
                promoted {p().sites_promoted}/{p().sites_scored}
              </span>
            )}
          </Show>
          <Show when={props.explain?.promoted && f().promoted}>
            <Term word="promoted">
              <span class="sr-only">promoted</span>
            </Term>
          </Show>
          <Show when={f().drift?.alarm}>
            <span class="badge warn" title="engine drift sounded its alarm on this flow's last check" data-testid={`drift-badge-${f().key}`}>
              drift alarm
            </span>
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
      <Show when={(props.versions ?? []).length > 0}>
        <Versions flowKey={f().key} versions={props.versions!} />
      </Show>
    </article>
  );
}

export default function FlowsPage() {
  useTitle(() => 'Flows');
  const flows = createApiResource(() => ({}), (_s, signal) => getFlows({ signal }), { topics: ['flows', 'servers'] });
  const items = () => (flows.data()?.items ?? []).filter((f) => !f.version_of);
  const versions = () => versionsByFlow(flows.data()?.items ?? []);
  const shown = () => {
    const d = domain();
    return items().filter((f) => d === null || (f.error !== null ? brokenNamesDomain(f, d) : f.domain === d));
  };
  const explained = (i: number) => {
    const list = shown();
    return { decider: list.findIndex((f) => f.error === null) === i, promoted: list.findIndex((f) => f.promoted !== null) === i };
  };
  /** Files that do not load, left out under the chosen domain: they name no domain of theirs. */
  const hiddenBroken = () => {
    const d = domain();
    return d === null ? 0 : items().filter((f) => f.error !== null && !brokenNamesDomain(f, d)).length;
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
      <Show when={hiddenBroken() > 0}>
        <p class="scope-note" data-testid="flows-hidden-broken">
          {hiddenBroken() === 1
            ? `1 flow file that does not load is not listed here: it names no domain, and its file name does not start with ${domain()}. Choose All domains to see it.`
            : `${hiddenBroken()} flow files that do not load are not listed here: they name no domain, and their file names do not start with ${domain()}. Choose All domains to see them.`}
        </p>
      </Show>
      <Loaded
        resource={flows}
        errorFrame={(e) => <div class="card">{e}</div>}
        skeleton={
          <div class="cards-2">
            <For each={[1, 2, 3, 4]}>{() => <div class="card"><Skeleton lines={4} /></div>}</For>
          </div>
        }
      >
        {() => (
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
              <For each={shown()}>{(f, i) => <FlowCard flow={f} versions={versions().get(f.key)} explain={explained(i())} />}</For>
            </div>
          </Show>
        )}
      </Loaded>
    </div>
  );
}
