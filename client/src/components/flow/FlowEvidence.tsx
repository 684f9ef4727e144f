// A flow's evidence (the flow page's Evidence tab): per site, the sessions whose flow log shows the flow
// acting there, newest first, with counts, each linking to the line of its session's log that shows the
// flow's first decision there (the session itself when no line does). Opened at a site (?site=), it scrolls
// that site into view and marks it.
import { A } from '@solidjs/router';
import { createEffect, For, on, Show } from 'solid-js';
import type { FlowSiteEvidence, FlowSites, FlowSiteSession } from '../../../../shared/flow-sites.ts';
import type { ApiResource } from '../../data/createApiResource.ts';
import { Loaded } from '../ui/Loaded.tsx';
import { siteAnchor } from '../../lib/compare.ts';
import { formatCount } from '../../lib/format.ts';
import { Card, Empty, ModeBadge, RelTime } from '../ui/ui.tsx';
import { DataTable } from '../ui/Table.tsx';

const sessionHref = (s: FlowSiteSession) => `/sessions/${encodeURIComponent(s.key)}${s.line === null ? '' : `?line=${s.line}`}`;

function countsText(e: FlowSiteEvidence): string {
  const parts = [`${formatCount(e.lookups)} ${e.lookups === 1 ? 'lookup' : 'lookups'}`, `${formatCount(e.hand_backs)} ${e.hand_backs === 1 ? 'hand-back' : 'hand-backs'}`];
  if (e.shadow > 0) parts.push(`${formatCount(e.shadow)} in shadow`);
  return `${formatCount(e.sessions)} ${e.sessions === 1 ? 'session' : 'sessions'}: ${parts.join(', ')}`;
}

function SiteCard(props: { e: FlowSiteEvidence; focused: boolean }) {
  return (
    <Card
      id={siteAnchor(props.e.site)}
      class={props.focused ? 'evidence-site focused' : 'evidence-site'}
      testid={`evidence-${props.e.site}`}
      title={
        <>
          After <code>{props.e.site === '' ? 'no call' : props.e.site}</code>
          <Show when={!props.e.in_flow}>
            {' '}
            <span class="badge">not a site of this flow</span>
          </Show>
        </>
      }
      caption={countsText(props.e)}
      flush
    >
      <Show when={props.e.items.length > 0} fallback={<p class="muted evidence-none">No session of this domain shows the flow here yet.</p>}>
        <DataTable
          stacking
          rows={props.e.items}
          rowClass="clickable"
          rowHref={sessionHref}
          columns={[
            { head: 'Session', class: 'idcell', cell: (s) => <A href={sessionHref(s)}>{s.session_id}</A> },
            {
              head: 'Decision',
              cell: (s) => (s.line === null ? <span class="subtle">—</span> : <A href={sessionHref(s)} data-testid="evidence-line">line {s.line}</A>),
            },
            { head: 'Mode', cell: (s) => <ModeBadge mode={s.mode} /> },
            { head: 'Lookups', headClass: 'n', class: 'n', cell: (s) => formatCount(s.lookups) },
            { head: 'Hand-backs', headClass: 'n', class: 'n', cell: (s) => formatCount(s.hand_backs) },
            { head: 'In shadow', headClass: 'n', class: 'n', cell: (s) => formatCount(s.shadow) },
            { head: 'Started', cell: (s) => <RelTime ms={s.started_unix_ms} /> },
          ]}
        />
        <Show when={props.e.sessions > props.e.items.length}>
          <p class="muted evidence-none">
            The newest {formatCount(props.e.items.length)} of {formatCount(props.e.sessions)}.
          </p>
        </Show>
      </Show>
    </Card>
  );
}

export default function FlowEvidence(props: { sites: ApiResource<FlowSites>; site: string | null }) {
  createEffect(
    on([() => props.sites.data(), () => props.site], ([data, site]) => {
      if (!data || site === null) return;
      queueMicrotask(() => document.getElementById(siteAnchor(site))?.scrollIntoView({ block: 'start' }));
    }),
  );
  return (
    <Loaded resource={props.sites} skeleton={6} skeletonLabel="Loading the evidence" errorFrame={(e) => <Card label="Evidence">{e}</Card>}>
      {(data) => (
        <div class="stack" classList={{ refreshing: props.sites.refreshing() }}>
          <p class="muted">
            Sessions of <code>{data().domain}</code> whose flow log shows a flow acting at each site: looking up, handing back, or deciding in
            shadow. A flow log does not name its flow, so every flow of the domain shares these sessions.
          </p>
          <Show when={data().sites.length > 0} fallback={<Empty icon="flow" title="This flow has no sites" />}>
            <For each={data().sites}>{(e) => <SiteCard e={e} focused={e.site === props.site} />}</For>
          </Show>
        </div>
      )}
    </Loaded>
  );
}
