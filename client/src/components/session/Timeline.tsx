// A session's timeline: conversation bubbles and LLM turns in time order; per turn a card per agent call
// (arguments → result, expandable) with the flow's read-ahead under it: each decision (made, in shadow or
// handed back) against the threshold, and the lookup it made. Every tool name, argument, result and message
// is rendered as text.
import { createEffect, createSignal, For, Match, on, Show, Switch } from 'solid-js';
import type { CallView, ContextMessage, FlowDecision, FlowRun, SessionDetail } from '../../../../shared/sessions.ts';
import { compact } from '../../lib/json.ts';
import { formatDuration, formatOffset, formatProb, plural } from '../../lib/format.ts';
import { buildTimeline, decisionValue, type CallItem, type DecisionItem } from '../../lib/timeline.ts';
import { Icon } from '../ui/Icon.tsx';
import { JsonTree } from '../ui/JsonTree.tsx';
import { CopyButton, KindBadge, ProbBar, Segmented } from '../ui/ui.tsx';

type Item = CallItem<CallView, FlowDecision, FlowRun>;
type DItem = DecisionItem<CallView, FlowDecision>;

function resultOf(c: CallView): unknown {
  return c.result_json !== null && c.result_json !== undefined ? c.result_json : c.result_text;
}

export function CallPayload(props: { call: CallView }) {
  const c = () => props.call;
  const label = () => (c().ok === false ? 'Error result' : 'Result');
  return (
    <div class="call-body">
      <JsonTree value={c().arguments} label="Arguments" depth={3} what="Arguments" />
      <Switch>
        <Match when={c().ok === null && c().result_t_ms === null}>
          <p class="muted">The server never answered this call.</p>
        </Match>
        <Match when={c().result_json !== null && c().result_json !== undefined}>
          <JsonTree value={c().result_json} label={label()} depth={2} maxHeight={420} what="Result" />
        </Match>
        <Match when={true}>
          <div class="text-panel">
            <div class="json-head">
              <span class="json-label">{label()}</span>
              <CopyButton text={() => c().result_text ?? ''} what="Result" />
            </div>
            <pre>{c().result_text ?? ''}</pre>
          </div>
        </Match>
      </Switch>
      <Show when={c().result_truncated}>
        <p class="muted">
          <Icon name="scissors" /> The result was over 64 KiB, so it is cut here. The raw log has all of it.
        </p>
      </Show>
    </div>
  );
}

function DecisionRow(props: { item: DItem | { decision: null; lookup: CallView }; threshold: number; expandAll: () => number; allOpen: () => boolean }) {
  const d = () => props.item.decision;
  const lookup = () => props.item.lookup;
  const kind = () => {
    const x = d();
    if (x === null) return 'made';
    if (x.action === 'hand_back') return 'back';
    if (x.shadow || !lookup()) return 'shadow';
    return 'made';
  };
  const tool = () => d()?.tool ?? lookup()?.tool ?? '';
  const args = () => {
    const x = d();
    const a = x ? x.arguments : lookup()?.arguments;
    return a === null || a === undefined ? '' : compact(a, 90);
  };
  const [open, setOpen] = createSignal(false);
  createEffect(on(props.expandAll, () => setOpen(props.allOpen()), { defer: true }));
  const isOpen = open;
  const value = () => {
    const x = d();
    return x ? decisionValue(x) : null;
  };
  return (
    <div class={`decision ${kind()}`} data-testid={`decision-${kind()}`}>
      <Icon name={kind() === 'back' ? 'corner-up-left' : 'corner-down-right'} />
      <div>
        <div class="decision-title">
          <Switch>
            <Match when={kind() === 'back'}>Handed back</Match>
            <Match when={kind() === 'shadow'}>
              Would look up <code>{tool()}</code>
            </Match>
            <Match when={true}>
              Looked up <code>{tool()}</code>
            </Match>
          </Switch>
          <Show when={args() && kind() !== 'back'}>
            {' '}
            <span class="decision-args">{args()}</span>
          </Show>
        </div>
        <div class="decision-sub">
          <Show when={d()} fallback={<span>an extra lookup after the call</span>}>
            <code>{d()!.address}</code> after <code>{d()!.site}</code>
            <Show when={d()!.reason}> · {d()!.reason}</Show>
            <Show when={d()!.shadow}> · in shadow, nothing looked up</Show>
          </Show>
          <Show when={lookup() && lookup()!.latency_ms !== null}>
            {' '}
            · {lookup()!.ok === false ? 'failed' : 'answered'} in {formatDuration(lookup()!.latency_ms)}
          </Show>
        </div>
      </div>
      <Show when={d() && d()!.prob !== null} fallback={<span />}>
        <span class="probbar">
          <ProbBar value={value()} threshold={props.threshold} acts={d()!.action === 'lookup'} />
          <Show when={d()!.binding !== null}>
            <span class="probbar-text">
              {formatProb(d()!.prob)} × {formatProb(d()!.binding)} binding
            </span>
          </Show>
        </span>
      </Show>
      <Show when={lookup()} fallback={<span />}>
        <button
          type="button"
          class="btn btn-ghost btn-sm btn-square"
          aria-expanded={isOpen()}
          aria-label={isOpen() ? 'Hide the lookup’s arguments and result' : 'Show the lookup’s arguments and result'}
          onClick={() => setOpen(!isOpen())}
        >
          <Icon name="chevron-down" />
        </button>
      </Show>
      <Show when={lookup() && isOpen()}>
        <div class="decision-body">
          <CallPayload call={lookup()!} />
        </div>
      </Show>
    </div>
  );
}

function CallCard(props: { item: Item; threshold: number; t0: number; expandAll: () => number; allOpen: () => boolean }) {
  const c = () => props.item.call;
  const [open, setOpen] = createSignal(false);
  createEffect(on(props.expandAll, () => setOpen(props.allOpen()), { defer: true }));
  const isOpen = open;
  const result = () => (c().ok === null && c().result_t_ms === null ? 'no answer' : compact(resultOf(c()), 110));
  const decisions = () => props.item.decisions;
  const shadow = () => decisions().some((d) => d.decision.shadow);
  const made = () => decisions().filter((d) => d.lookup !== null).length + props.item.extraLookups.length;
  const heading = () => {
    if (shadow()) return decisions().some((d) => d.decision.action === 'lookup') ? 'In shadow: what the flow would have read ahead' : 'In shadow: the flow’s decision';
    if (made() > 0) return `Read ahead by engine: ${plural(made(), 'lookup')}`;
    return 'The flow’s decision';
  };
  return (
    <div class={`call${c().ok === false ? ' failed' : ''}`} data-testid={`call-${c().id}`}>
      <button type="button" class="call-head" aria-expanded={isOpen()} onClick={() => setOpen(!isOpen())}>
        <Icon name="chevron-right" class="caret" />
        <span class="tool">{c().tool}</span>
        <span class="sr-only">{isOpen() ? 'Hide the arguments and result' : 'Show the arguments and result'}</span>
        <Show when={c().kind !== 'read'}>
          <KindBadge kind={c().kind} />
        </Show>
        <Show when={c().ok === false}>
          <span class="badge danger">Failed</span>
        </Show>
        <Show when={c().ok === null}>
          <span class="badge warn">No answer</span>
        </Show>
        <Show when={c().latency_ms !== null}>
          <span class="latency" title={`Answered in ${formatDuration(c().latency_ms)}`}>
            {formatDuration(c().latency_ms)}
          </span>
        </Show>
      </button>
      <Show when={!isOpen()}>
        <div class="call-line">
          {compact(c().arguments, 90)} → <span class={c().ok === false ? 'danger-text' : undefined}>{result()}</span>
        </div>
      </Show>
      <Show when={isOpen()}>
        <CallPayload call={c()} />
      </Show>
      <Show when={decisions().length > 0 || props.item.extraLookups.length > 0}>
        <section class="readahead" aria-label={heading()}>
          <div class="readahead-head">
            <span>
              <Icon name="waypoints" /> {heading()}
            </span>
            <Show when={props.item.run?.surprise !== null && props.item.run?.surprise !== undefined}>
              <span class="subtle" title="How unexpected the server's answers were under the flow's statistics">
                surprise {props.item.run!.surprise!.toFixed(2)} nats
              </span>
            </Show>
          </div>
          <For each={decisions()}>{(d) => <DecisionRow item={d} threshold={props.threshold} expandAll={props.expandAll} allOpen={props.allOpen} />}</For>
          <For each={props.item.extraLookups}>
            {(l) => <DecisionRow item={{ decision: null, lookup: l }} threshold={props.threshold} expandAll={props.expandAll} allOpen={props.allOpen} />}
          </For>
        </section>
      </Show>
    </div>
  );
}

function Bubble(props: { m: ContextMessage; t0: number }) {
  return (
    <div class={`bubble-wrap ${props.m.role}`}>
      <span class="bubble-meta">
        <Icon name={props.m.role === 'user' ? 'sessions' : 'bot'} size={13} />
        {props.m.role === 'user' ? 'Customer' : 'Agent'} <span class="mono">{formatOffset(props.m.t_ms - props.t0)}</span>
      </span>
      <div class="bubble">{props.m.content}</div>
    </div>
  );
}

type Show_ = 'all' | 'calls' | 'conversation' | 'failed';

export function SessionTimeline(props: { detail: SessionDetail; threshold: number }) {
  const all = () => buildTimeline({ calls: props.detail.calls, decisions: props.detail.decisions, runs: props.detail.runs, turns: props.detail.turns, context: props.detail.context });
  // What to show: everything, the calls alone, the conversation alone, or only the turns with a failed call.
  const [show, setShow] = createSignal<Show_>('all');
  const entries = () => {
    const list = all();
    switch (show()) {
      case 'calls':
        return list.filter((e) => e.type === 'turn' && e.calls.length > 0);
      case 'conversation':
        return list.filter((e) => e.type === 'message');
      case 'failed':
        return list
          .filter((e) => e.type === 'turn')
          .map((e) => (e.type === 'turn' ? { ...e, calls: e.calls.filter((c) => c.call.ok !== true) } : e))
          .filter((e) => e.type === 'turn' && e.calls.length > 0);
      default:
        return list;
    }
  };
  const failed = () => props.detail.calls.filter((c) => c.by === 'agent' && c.ok !== true).length;
  const [version, setVersion] = createSignal(0);
  const [allOpen, setAllOpen] = createSignal(false);
  const toggleAll = () => {
    setAllOpen(!allOpen());
    setVersion(version() + 1);
  };
  return (
    <Show
      when={all().length > 0}
      fallback={<p class="muted">This session has no calls and no conversation: the host connected and listed the tools, and nothing more.</p>}
    >
      <div class="timeline-bar">
        <Segmented
          label="Show"
          value={show()}
          onChange={setShow}
          options={[
            { value: 'all', label: 'Everything' },
            { value: 'calls', label: 'Calls' },
            { value: 'conversation', label: 'Conversation' },
            { value: 'failed', label: `Failed or unanswered (${failed()})` },
          ]}
        />
      </div>
      <div class="timeline-bar">
        <div class="tl-legend">
          <span>
            <span class="box" /> The agent’s call
          </span>
          <span>
            <span class="box made" /> Read ahead by engine
          </span>
          <span>
            <span class="box shadow" /> Would read ahead (shadow)
          </span>
          <span>
            <span class="box back" /> Handed back
          </span>
        </div>
        <button type="button" class="btn btn-sm" onClick={toggleAll}>
          <Icon name="chevrons-up-down" />
          {allOpen() ? 'Collapse all' : 'Expand all'}
        </button>
      </div>
      <Show when={entries().length === 0}>
        <p class="muted">Nothing of this kind in the session.</p>
      </Show>
      <ol class="timeline">
        <For each={entries()}>
          {(e) => (
            <Switch>
              <Match when={e.type === 'message' && e}>
                {(m) => (
                  <li class="tl-entry msg">
                    <Bubble m={m().message} t0={0} />
                  </li>
                )}
              </Match>
              <Match when={e.type === 'turn' && e}>
                {(t) => (
                  <li class="tl-entry">
                    <span class="tl-turn-label">
                      Turn {t().turn.index + 1} <span class="mono">{formatOffset(t().turn.start_ms)}</span>
                      <Show when={t().calls.length > 1}> · {t().calls.length} calls in parallel</Show>
                      <Show when={t().calls.length === 0}>
                        <span class="subtle"> · no tool calls</span>
                      </Show>
                    </span>
                    <For each={t().calls}>{(item) => <CallCard item={item} threshold={props.threshold} t0={0} expandAll={version} allOpen={allOpen} />}</For>
                  </li>
                )}
              </Match>
            </Switch>
          )}
        </For>
      </ol>
    </Show>
  );
}
