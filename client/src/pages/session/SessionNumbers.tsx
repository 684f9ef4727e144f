// Above the session page's tabs: the notice when the session surprised the flow, and its numbers.
import { Show } from 'solid-js';
import type { SessionOutline } from '../../../../shared/session-views.ts';
import { Notice, Stat } from '../../components/ui/ui.tsx';

/** The first hand-back whose reason names the surprise gate, for the notice. */
function surpriseOf(outline: SessionOutline): { after: string; reason: string } | undefined {
  const d = outline.decisions.find((x) => x.action === 'hand_back' && x.reason !== null && /surpris|nats/i.test(x.reason));
  return d && d.reason !== null ? { after: d.after, reason: d.reason } : undefined;
}

export function SurprisedNotice(props: { outline: SessionOutline }) {
  return (
    <Show when={props.outline.summary.surprised}>
      <Notice tone="warn" role="status" icon="zap" testid="surprised-notice">
        <Show
          when={surpriseOf(props.outline)}
          fallback={<>The session surprised the flow: its surprise gate handed back, and from there the flow handed back after every call.</>}
        >
          {(s) => (
            <>
              The session surprised the flow after call <code>{s().after}</code>: {s().reason}. From there the flow handed back after every call.
            </>
          )}
        </Show>
      </Notice>
    </Show>
  );
}

export function SessionStats(props: { outline: SessionOutline; refreshing: boolean }) {
  const s = () => props.outline.summary;
  return (
    <section aria-label="Numbers for this session" class={`stats six${props.refreshing ? ' refreshing' : ''}`}>
      <Stat label="Tool calls" value={s().tool_calls} caption="the agent’s own" />
      <Stat label="LLM turns" value={s().llm_turns} caption="inferred from timing" />
      <Show when={s().mode === 'shadow'} fallback={<Stat label="Lookups" value={s().flow_lookups} caption="read ahead by the flow" accent />}>
        <Stat label="In shadow" value={s().shadow_lookups} caption="lookups decided, none made" />
      </Show>
      <Stat label="Hand-backs" value={s().hand_backs} caption="the flow’s decisions to stop" />
      <Stat label="Errors" value={s().errors} caption="failed calls" />
      <Stat label="Writes" value={s().writes} caption="calls to write tools" />
    </section>
  );
}
