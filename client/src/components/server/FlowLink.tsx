// A server's flow: a link to the flow's page when it is a flow the catalog has, else the path as given,
// else "none".
import { A } from '@solidjs/router';
import { Show } from 'solid-js';
import type { ServerView } from '../../../../shared/servers.ts';
import { flowSummaryOf } from '../../lib/server-view.ts';
import { Icon } from '../ui/Icon.tsx';

export default function FlowLink(props: { server: ServerView }) {
  const summary = () => flowSummaryOf(props.server.flow_summary);
  return (
    <Show when={props.server.flow !== null} fallback={<span class="muted">none</span>}>
      <Show when={summary()} fallback={<span class="mono subtle wrap">{props.server.flow}</span>}>
        {(f) => (
          <A href={`/flows/${encodeURIComponent(f().key)}`} class="mono icon-link">
            <Icon name="flow" size={14} /> <span>{f().key}</span>
          </A>
        )}
      </Show>
    </Show>
  );
}

