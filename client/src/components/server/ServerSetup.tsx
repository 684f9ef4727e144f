// The server's setup in words: upstream, its headers or variables, mode, flow (with its decider and
// threshold), the proxy's policy, where it records, its sessions and when it was added and changed.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { HeaderRef, ServerView } from '../../../../shared/servers.ts';
import { formatDateTime } from '../../lib/format.ts';
import { defaultRecordDir, shownPath, upstreamText } from '../../lib/server-form.ts';
import { deciderText, flowSummaryOf, policyRows, thresholdText } from '../../lib/server-view.ts';
import { RelTime } from '../ui/ui.tsx';
import FlowLink from './FlowLink.tsx';
import ServerModeBadge from './ServerModeBadge.tsx';

/** Where the proxy records: the argument after --record, as the server worked it out. */
function recordsTo(args: readonly string[]): string | null {
  const i = args.indexOf('--record');
  return i >= 0 ? (args[i + 1] ?? null) : null;
}

function Chips(props: { items: string[] }) {
  return (
    <Show when={props.items.length > 0} fallback={<span class="muted">none</span>}>
      <For each={props.items}>{(text) => <span class="chip mono">{text}</span>}</For>
    </Show>
  );
}

function PolicyList(props: { server: ServerView }) {
  return (
    <Show when={policyRows(props.server).length > 0} fallback={<span class="muted">none: no guards, judge, retention or listening</span>}>
      <dl class="kv kv-nested">
        <For each={policyRows(props.server)}>
          {([label, value]) => (
            <>
              <dt>{label}</dt>
              <dd class="wrap">{value}</dd>
            </>
          )}
        </For>
      </dl>
    </Show>
  );
}

export function ServerSetup(props: { server: ServerView; env: string[]; headers: HeaderRef[]; dataDirShown: string }) {
  const s = () => props.server;
  return (
    <dl class="kv">
      <dt>Upstream</dt>
      <dd class="mono wrap">{upstreamText(s().upstream)}</dd>
      <Show when={s().upstream.kind === 'http'}>
        <dt>Headers</dt>
        <dd>
          <Chips items={props.headers.map((h) => `${h.name} ← $${h.env}`)} />
        </dd>
      </Show>
      <Show when={s().upstream.kind === 'stdio'}>
        <dt>Variables</dt>
        <dd>
          <Chips items={props.env} />
        </dd>
      </Show>
      <dt>Mode</dt>
      <dd>
        <ServerModeBadge mode={s().mode} />
      </dd>
      <dt>Flow</dt>
      <dd>
        <FlowLink server={s()} />
      </dd>
      <Show when={s().flow !== null}>
        <dt>Decider</dt>
        <dd>{deciderText(s().decider, flowSummaryOf(s().flow_summary))}</dd>
        <dt>Threshold</dt>
        <dd class="num">{thresholdText(s().threshold)}</dd>
      </Show>
      <dt>Policy</dt>
      <dd data-testid="server-policy">
        <PolicyList server={s()} />
      </dd>
      <dt>Records to</dt>
      <dd class="mono wrap">
        {recordsTo(s().proxy_args) ?? (s().record_dir !== null ? shownPath(s().record_dir!, props.dataDirShown) : defaultRecordDir(props.dataDirShown, s().name, s().mode))}
      </dd>
      <dt>Sessions</dt>
      <dd>
        <A href={`/sessions?domain=${encodeURIComponent(s().name)}`}>{s().sessions}</A>
        <Show when={s().last_session_unix_ms !== null}>
          {' '}· last <RelTime ms={s().last_session_unix_ms} />
        </Show>
      </dd>
      <dt>Added</dt>
      <dd>{formatDateTime(s().created_unix_ms)}</dd>
      <dt>Changed</dt>
      <dd>{formatDateTime(s().updated_unix_ms)}</dd>
    </dl>
  );
}
