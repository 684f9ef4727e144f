// A domain on the Overview: its sessions by mode, its flows and its servers, each a link.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { DomainSummary } from '../../../../shared/overview.ts';
import { formatCount } from '../../lib/format.ts';
import type { SessionsScope } from '../../lib/sessions-link.ts';
import { Icon } from '../ui/Icon.tsx';
import { RelTime } from '../ui/ui.tsx';

export function DomainCard(props: { d: DomainSummary; /** Its sessions' list, in the overview's range. */ link: (scope: SessionsScope) => string }) {
  const m = () => props.d.modes;
  const total = () => m().served + m().shadow + m().recorded;
  const segs = () =>
    (
      [
        ['served', m().served],
        ['shadow', m().shadow],
        ['recorded', m().recorded],
      ] as const
    ).filter(([, n]) => n > 0);
  const label = () => `${m().served} served, ${m().shadow} in shadow, ${m().recorded} recorded`;
  const q = () => encodeURIComponent(props.d.name);
  return (
    <article class="card dc">
      <div class="dc-head">
        <A class="dc-name" href={props.link({})}>
          {props.d.name}
          <Icon name="arrow-right" size={14} />
        </A>
        <span class="subtle" style={{ 'font-size': '12px' }}>
          <Show when={props.d.last_session_unix_ms !== null} fallback="no sessions yet">
            last <RelTime ms={props.d.last_session_unix_ms} />
          </Show>
        </span>
      </div>
      <A class="dc-count" href={props.link({})} data-testid="domain-sessions">
        <strong>{formatCount(props.d.sessions)}</strong>
        {props.d.sessions === 1 ? 'session' : 'sessions'}
      </A>
      <div class="modebar" role="img" aria-label={label()}>
        <For each={segs()}>{([k, n]) => <span class={`seg-${k}`} style={{ flex: `${n / Math.max(1, total())} 0 4px` }} />}</For>
      </div>
      <div class="legend">
        <A href={props.link({ mode: 'served' })} data-testid="domain-mode-served">
          <span class="swatch seg-served" /> {m().served} served
        </A>
        <A href={props.link({ mode: 'shadow' })} data-testid="domain-mode-shadow">
          <span class="swatch seg-shadow" /> {m().shadow} in shadow
        </A>
        <A href={props.link({ mode: 'recorded' })} data-testid="domain-mode-recorded">
          <span class="swatch seg-recorded" /> {m().recorded} recorded
        </A>
      </div>
      <div class="dc-links">
        <Icon name="flow" />
        <span class="sr-only">Flows</span>
        <Show when={props.d.flows.length > 0} fallback={<A href={`/jobs/new?kind=learn&domain=${q()}`}>Learn a flow</A>}>
          <For each={props.d.flows}>
            {(f) => (
              <A class="mono" href={`/flows/${encodeURIComponent(f)}`}>
                {f}
              </A>
            )}
          </For>
        </Show>
      </div>
      <div class="dc-links">
        <Icon name="server" />
        <span class="sr-only">Servers</span>
        <Show when={props.d.servers.length > 0} fallback={<A href={`/servers/new?domain=${q()}`}>Register its server</A>}>
          <For each={props.d.servers}>
            {(s) => (
              <A class="mono" href={`/servers/${encodeURIComponent(s)}`}>
                {s}
              </A>
            )}
          </For>
        </Show>
      </div>
    </article>
  );
}
