// The top of a loaded flow page, above its tabs: the flow's warnings, what it is a staged flow or a version
// of, and its numbers (sites, lookups, tools, the servers that serve it).
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { FlowDetail } from '../../../../shared/flows.ts';
import { Icon } from '../../components/ui/Icon.tsx';
import { Notice, RichText } from '../../components/ui/ui.tsx';
import { formatBytes } from '../../lib/format.ts';
import { toolCountsText } from '../../lib/flow-words.ts';
import { DriftNotice } from './DriftNotice.tsx';

function ServedBy(props: { names: string[] }) {
  return (
    <Show when={props.names.length > 0} fallback={<span class="muted">no server</span>}>
      <For each={props.names}>
        {(name, i) => (
          <>
            {i() > 0 ? ', ' : ''}
            <A href={`/servers/${encodeURIComponent(name)}`} class="mono icon-link">
              <Icon name="server" size={14} /> <span>{name}</span>
            </A>
          </>
        )}
      </For>
    </Show>
  );
}
/** The flow's warnings, and a note when it is a staged flow or a committed version of another. */
export function FlowNotices(props: { detail: FlowDetail }) {
  const d = () => props.detail;
  return (
    <>
      <Show when={d().summary.drift}>{(check) => <DriftNotice check={check()} />}</Show>
      <For each={d().warnings}>
        {(w) => (
          <Notice tone="warn" role="status">
            <RichText text={w} />
          </Notice>
        )}
      </For>
      <Show when={d().summary.surprise}>
        {(g) => (
          <Notice tone="info" role="status" testid="surprise-gate">
            Surprise gate: the flow hands back for the rest of a session once {g().window} of the agent’s steps in a row average more than{' '}
            {g().threshold.toFixed(2)} nats of surprise
            {g().quantile === undefined ? ' (set by hand).' : `, the ${g().quantile} quantile of held-out training sessions’ most surprising windows.`}{' '}
            The Review tab explains it.
          </Notice>
        )}
      </Show>
      <Show when={d().summary.stage?.staged}>
        <Notice tone="info" role="status" testid="staged-of">
          <Show when={d().summary.stage?.other} fallback={<>A staged flow, never committed.</>}>
            {(other) => (
              <>
                The staged flow of{' '}
                <A href={`/flows/${encodeURIComponent(other())}?tab=staged`} class="mono">
                  {other()}
                </A>
              </>
            )}
          </Show>
        </Notice>
      </Show>
      <Show when={d().summary.version_of}>
        {(v) => (
          <Notice tone="info" role="status" testid="version-of">
            Version {v().version} of{' '}
            <Show when={v().flow} fallback={<span class="mono">{v().name}</span>}>
              {(of) => (
                <A href={`/flows/${encodeURIComponent(of())}?tab=staged`} class="mono">
                  {of()}
                </A>
              )}
            </Show>
            , as it was committed: kept in <code>{v().name}.history/</code>. Roll back to it from its flow’s Staged › Versions.
          </Notice>
        )}
      </Show>
    </>
  );
}

export function FlowFacts(props: { detail: FlowDetail }) {
  const d = () => props.detail;
  return (
    <section class="facts" aria-label="The flow in numbers">
      <div class="fact">
        <span class="fact-label">Sites</span>
        <span class="fact-value num">{d().summary.sites}</span>
        <span class="fact-hint">calls it decides after</span>
      </div>
      <div class="fact">
        <span class="fact-label">Lookups</span>
        <span class="fact-value num">{d().summary.lookups}</span>
        <span class="fact-hint" title={d().summary.lookup_tools.join(', ')}>
          distinct tools it may read
        </span>
      </div>
      <div class="fact">
        <span class="fact-label">Tools</span>
        <span class="fact-value num">{toolCountsText({ ...d().summary.tools, generic: 0 })}</span>
        <span class="fact-hint">
          {d().summary.tools.generic > 0 ? `${d().summary.tools.generic} neither; ` : ''}it calls reads only
        </span>
      </div>
      <div class="fact">
        <span class="fact-label">Served by</span>
        <span class="fact-value fact-value-sm">
          <ServedBy names={d().summary.served_by} />
        </span>
        <span class="fact-hint mono wrap">
          {d().summary.path} · {formatBytes(d().summary.size_bytes)}
        </span>
      </div>
    </section>
  );
}
