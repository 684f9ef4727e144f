// The session timeline's rows: an LLM turn's calls (each a card with the flow's read-ahead under it: each
// decision against the threshold, and the lookup it made) or a conversation bubble. Rows hold no state of
// their own (they come and go as the list scrolls): what is open and what is found is read from RowContext.
import { For, Match, Show, Switch } from 'solid-js';
import type { CallOutline } from '../../../../shared/session-views.ts';
import type { FlowDecision } from '../../../../shared/sessions.ts';
import { formatDuration, formatOffset, formatProb, plural } from '../../lib/format.ts';
import { compact } from '../../lib/json.ts';
import { callKey, type Entry, type IndexedMessage, type Item, messageKey } from '../../lib/session-find.ts';
import { decisionValue } from '../../lib/timeline.ts';
import { Icon } from '../ui/Icon.tsx';
import { CopyButton, KindBadge, ProbBar } from '../ui/ui.tsx';
import { callHref } from '../../lib/call-link.ts';
import { PayloadCache } from '../../data/payload-cache.ts';
import { decidedAt } from '../../lib/decision-threshold.ts';
import { CallPayloadView, Highlight } from './CallPayload.tsx';

/** What the rows read from the timeline: open state, find state and the payload cache. */
export interface RowContext {
  sessionKey: string;
  threshold: number;
  cache: PayloadCache;
  isOpen: (n: number) => boolean;
  toggle: (n: number) => void;
  /** The find text, when a find is on. */
  q: () => string;
  matched: (key: string) => boolean;
  current: () => string | null;
  /** The log's line of a call's request (for its address), asked for when first needed; null when none. */
  lineOf: (n: number) => Promise<number | null>;
}

/** Copies the address of one call (`/sessions/<key>?line=<N>`); its line is asked for when pressed. */
function CallLinkButton(props: { ctx: RowContext; n: number; what: string }) {
  const address = async () => {
    const line = await props.ctx.lineOf(props.n);
    if (line === null) throw new Error('this call has no line in the log');
    return `${window.location.origin}${callHref(props.ctx.sessionKey, line)}`;
  };
  return (
    <span class="call-link">
      <CopyButton what={`link to this ${props.what}`} text={() => ''} textWhenPressed={address} />
    </span>
  );
}

function matchClass(ctx: RowContext, key: string): string {
  if (ctx.current() === key) return ' match current-match';
  return ctx.matched(key) ? ' match' : '';
}

function DecisionRow(props: { decision: FlowDecision | null; lookup: CallOutline | null; ctx: RowContext; /** The agent's call it came after. */ after: number }) {
  const d = () => props.decision;
  const lookup = () => props.lookup;
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
    if (x) return x.arguments === null || x.arguments === undefined ? '' : compact(x.arguments, 90);
    return lookup()?.arguments_short ?? '';
  };
  const isOpen = () => lookup() !== null && props.ctx.isOpen(lookup()!.n);
  const value = () => {
    const x = d();
    return x ? decisionValue(x) : null;
  };
  const key = () => (lookup() ? callKey(lookup()!.n) : '');
  return (
    <div
      class={`decision ${kind()}${key() ? matchClass(props.ctx, key()) : ''}`}
      data-testid={`decision-${kind()}`}
      data-key={key() || undefined}
      data-current-match={key() !== '' && props.ctx.current() === key() ? '' : undefined}
    >
      <Icon name={kind() === 'back' ? 'corner-up-left' : 'corner-down-right'} />
      <div>
        <div class="decision-title">
          <Switch>
            <Match when={kind() === 'back'}>Handed back</Match>
            <Match when={kind() === 'shadow'}>
              Would look up <code><Highlight text={tool()} q={props.ctx.q()} /></code>
            </Match>
            <Match when={true}>
              Looked up <code><Highlight text={tool()} q={props.ctx.q()} /></code>
            </Match>
          </Switch>
          <Show when={args() && kind() !== 'back'}>
            {' '}
            <span class="decision-args">
              <Highlight text={args()} q={props.ctx.q()} />
            </span>
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
          <CallLinkButton ctx={props.ctx} n={lookup()?.n ?? props.after} what="decision" />
        </div>
      </div>
      <Show when={d() && d()!.prob !== null} fallback={<span />}>
        <span class="probbar">
          <ProbBar value={value()} threshold={decidedAt(d()!, props.ctx.threshold)} acts={d()!.action === 'lookup'} />
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
          onClick={() => props.ctx.toggle(lookup()!.n)}
        >
          <Icon name="chevron-down" />
        </button>
      </Show>
      <Show when={isOpen()}>
        <div class="decision-body">
          <CallPayloadView call={lookup()!} sessionKey={props.ctx.sessionKey} cache={props.ctx.cache} q={props.ctx.q()} />
        </div>
      </Show>
    </div>
  );
}

function CallCard(props: { item: Item; ctx: RowContext }) {
  const c = () => props.item.call;
  const isOpen = () => props.ctx.isOpen(c().n);
  const result = () => (c().result_short === null ? 'no answer' : c().result_short!);
  const decisions = () => props.item.decisions;
  const shadow = () => decisions().some((d) => d.decision.shadow);
  const made = () => decisions().filter((d) => d.lookup !== null).length + props.item.extraLookups.length;
  const heading = () => {
    if (shadow()) return decisions().some((d) => d.decision.action === 'lookup') ? 'In shadow: what the flow would have read ahead' : 'In shadow: the flow’s decision';
    if (made() > 0) return `Read ahead by engine: ${plural(made(), 'lookup')}`;
    return 'The flow’s decision';
  };
  const key = () => callKey(c().n);
  return (
    <div
      class={`call${c().ok === false ? ' failed' : ''}${matchClass(props.ctx, key())}`}
      data-testid={`call-${c().id}`}
      data-key={key()}
      data-current-match={props.ctx.current() === key() ? '' : undefined}
    >
      <CallLinkButton ctx={props.ctx} n={c().n} what="call" />
      <button type="button" class="call-head" aria-expanded={isOpen()} onClick={() => props.ctx.toggle(c().n)}>
        <Icon name="chevron-right" class="caret" />
        <span class="tool">
          <Highlight text={c().tool} q={props.ctx.q()} />
        </span>
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
          <Highlight text={c().arguments_short} q={props.ctx.q()} /> →{' '}
          <span class={c().ok === false ? 'danger-text' : undefined}>
            <Highlight text={result()} q={props.ctx.q()} />
          </span>
        </div>
      </Show>
      <Show when={isOpen()}>
        <CallPayloadView call={c()} sessionKey={props.ctx.sessionKey} cache={props.ctx.cache} q={props.ctx.q()} />
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
          <For each={decisions()}>{(d) => <DecisionRow decision={d.decision} lookup={d.lookup} ctx={props.ctx} after={c().n} />}</For>
          <For each={props.item.extraLookups}>{(l) => <DecisionRow decision={null} lookup={l} ctx={props.ctx} after={c().n} />}</For>
        </section>
      </Show>
    </div>
  );
}

function Bubble(props: { m: IndexedMessage; ctx: RowContext }) {
  const key = () => messageKey(props.m.index);
  return (
    <div
      class={`bubble-wrap ${props.m.role}${matchClass(props.ctx, key())}`}
      data-key={key()}
      data-current-match={props.ctx.current() === key() ? '' : undefined}
    >
      <span class="bubble-meta">
        <Icon name={props.m.role === 'user' ? 'sessions' : 'bot'} size={13} />
        {props.m.role === 'user' ? 'Customer' : 'Agent'} <span class="mono">{formatOffset(props.m.t_ms)}</span>
      </span>
      <div class="bubble">
        <Highlight text={props.m.content} q={props.ctx.matched(key()) ? props.ctx.q() : ''} />
      </div>
    </div>
  );
}

export function EntryRow(props: { entry: Entry; ctx: RowContext }) {
  return (
    <Switch>
      <Match when={props.entry.type === 'message' && props.entry}>
        {(m) => (
          <div class="tl-entry msg">
            <Bubble m={m().message} ctx={props.ctx} />
          </div>
        )}
      </Match>
      <Match when={props.entry.type === 'turn' && props.entry}>
        {(t) => (
          <div class="tl-entry">
            <h3 class="tl-turn-label">
              Turn {t().turn.index + 1} <span class="mono">{formatOffset(t().turn.start_ms)}</span>
              <Show when={t().calls.length > 1}> · {t().calls.length} calls in parallel</Show>
              <Show when={t().calls.length === 0}>
                <span class="subtle"> · no tool calls</span>
              </Show>
            </h3>
            <For each={t().calls}>{(item) => <CallCard item={item} ctx={props.ctx} />}</For>
          </div>
        )}
      </Match>
    </Switch>
  );
}

/** Estimated heights (px) before a row is measured: close enough that the scrollbar barely moves. */
export function estimate(e: Entry | undefined, isOpen: (n: number) => boolean): number {
  if (!e) return 0;
  if (e.type === 'message') return 30 + 24 * Math.min(8, Math.ceil(e.message.content.length / 70)) + 14;
  let h = 34;
  for (const item of e.calls) {
    h += 68 + (isOpen(item.call.n) ? 360 : 0);
    const rows = item.decisions.length + item.extraLookups.length;
    if (rows > 0) h += 36 + rows * 52;
  }
  return h;
}
