// A session's timeline from its outline: conversation bubbles and LLM turns in time order; per turn a card
// per agent call (arguments → result in short, the whole payload fetched when opened) with the flow's
// read-ahead under it: each decision (made, in shadow or handed back) against the threshold, and the
// lookup it made. The list is virtualized (only rows near the viewport exist), so "Expand all" and
// scrolling stay quick on thousands of calls; what is open lives here, not in the rows. The find bar and
// the minimap sit beside it. Every tool name, argument, result and message is rendered as text.
import { useSearchParams } from '@solidjs/router';
import { createEffect, createMemo, createSignal, For, Match, on, onCleanup, onMount, Show, Switch } from 'solid-js';
import type { CallOutline, FindMatch, SessionOutline } from '../../../../shared/session-views.ts';
import type { FlowDecision } from '../../../../shared/sessions.ts';
import { findInSession } from '../../api/endpoints.ts';
import { formatDuration, formatOffset, formatProb, plural } from '../../lib/format.ts';
import { compact } from '../../lib/json.ts';
import {
  callKey,
  type Entry,
  filterEntries,
  filtering,
  findParams,
  findTargets,
  type IndexedMessage,
  type Item,
  messageKey,
  minimapMarks,
  NO_FIND,
  readFindState,
  timelineOf,
  type FindState,
  type ShowMode,
} from '../../lib/session-find.ts';
import { decisionValue } from '../../lib/timeline.ts';
import { Icon } from '../ui/Icon.tsx';
import { KindBadge, ProbBar, Segmented } from '../ui/ui.tsx';
import { VirtualList, type VirtualHandle } from '../ui/VirtualList.tsx';
import { PayloadCache } from '../../data/payload-cache.ts';
import { CallPayloadView, Highlight } from './CallPayload.tsx';
import { FindBar } from './FindBar.tsx';
import { Minimap } from './Minimap.tsx';
import { errorText } from '../../../../shared/error-text.ts';

/** What the rows read from the timeline: open state, find state and the payload cache. */
interface RowContext {
  sessionKey: string;
  threshold: number;
  cache: PayloadCache;
  isOpen: (n: number) => boolean;
  toggle: (n: number) => void;
  /** The find text, when a find is on. */
  q: () => string;
  matched: (key: string) => boolean;
  current: () => string | null;
}

function matchClass(ctx: RowContext, key: string): string {
  if (ctx.current() === key) return ' match current-match';
  return ctx.matched(key) ? ' match' : '';
}

function DecisionRow(props: { decision: FlowDecision | null; lookup: CallOutline | null; ctx: RowContext }) {
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
        </div>
      </div>
      <Show when={d() && d()!.prob !== null} fallback={<span />}>
        <span class="probbar">
          <ProbBar value={value()} threshold={props.ctx.threshold} acts={d()!.action === 'lookup'} />
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
          <For each={decisions()}>{(d) => <DecisionRow decision={d.decision} lookup={d.lookup} ctx={props.ctx} />}</For>
          <For each={props.item.extraLookups}>{(l) => <DecisionRow decision={null} lookup={l} ctx={props.ctx} />}</For>
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

function EntryRow(props: { entry: Entry; ctx: RowContext }) {
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
function estimate(e: Entry | undefined, isOpen: (n: number) => boolean): number {
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

/** The find bar and the minimap keep this much of the viewport's top clear when they scroll to a row. */
const SCROLL_MARGIN = 170;
/** The find request waits this long after the last key. */
const FIND_DEBOUNCE_MS = 250;

export function SessionTimeline(props: { outline: SessionOutline; sessionKey: string; threshold: number }) {
  const timeline = createMemo(() => timelineOf(props.outline));
  const [search, setSearch] = useSearchParams();
  const find = createMemo<FindState>(() => readFindState(search as Record<string, string | string[] | undefined>), NO_FIND, {
    equals: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  });
  const setFind = (patch: Partial<FindState>) => setSearch(findParams({ ...find(), ...patch }), { replace: true, scroll: false });
  const [barOpen, setBarOpen] = createSignal(find().q !== '' || filtering(find()));

  // What to show: everything, the calls alone, the conversation alone, or only the turns with a failed call.
  const [show, setShow] = createSignal<ShowMode>('all');
  const entries = createMemo(() => filterEntries(timeline(), show(), find()));
  const failed = () => props.outline.calls.filter((c) => c.by === 'agent' && c.ok !== true).length;

  // Open state, outside the rows: "Expand all" flips the default, a click flips one call against it.
  const [allOpen, setAllOpen] = createSignal(false);
  const [flipped, setFlipped] = createSignal<ReadonlySet<number>>(new Set());
  const isOpen = (n: number) => allOpen() !== flipped().has(n);
  const toggle = (n: number) => {
    const s = new Set(flipped());
    if (s.has(n)) s.delete(n);
    else s.add(n);
    setFlipped(s);
  };
  const toggleAll = () => {
    setFlipped(new Set<number>());
    setAllOpen(!allOpen());
  };

  // Find: on the server (see findInSession in server/data/session-views.ts for why), debounced.
  const [matches, setMatches] = createSignal<FindMatch[] | null>(null);
  const [finding, setFinding] = createSignal(false);
  const [findError, setFindError] = createSignal<string | null>(null);
  let findCtrl: AbortController | null = null;
  let findTimer: ReturnType<typeof setTimeout> | undefined;
  // A memo of the text alone: moving to another match changes the URL, not the text, and must not search again.
  const findText = createMemo(() => find().q);
  createEffect(
    on(
      findText,
      (q) => {
        findCtrl?.abort();
        clearTimeout(findTimer);
        if (q.trim() === '') {
          setMatches(null);
          setFinding(false);
          setFindError(null);
          return;
        }
        setFinding(true);
        findTimer = setTimeout(() => {
          const ctrl = new AbortController();
          findCtrl = ctrl;
          findInSession(props.sessionKey, q, { signal: ctrl.signal }).then(
            (r) => {
              if (ctrl.signal.aborted) return;
              setMatches(r.matches);
              setFindError(null);
              setFinding(false);
            },
            (e: unknown) => {
              if (ctrl.signal.aborted) return;
              setFindError(errorText(e));
              setFinding(false);
            },
          );
        }, FIND_DEBOUNCE_MS);
      },
    ),
  );
  onCleanup(() => {
    findCtrl?.abort();
    clearTimeout(findTimer);
  });

  const targets = createMemo(() => {
    const m = matches();
    return m === null ? [] : findTargets(entries(), m);
  });
  const matchedKeys = createMemo(() => new Set(targets().map((t) => t.key)));
  const currentIndex = () => {
    const n = targets().length;
    return n === 0 ? -1 : Math.min(find().match, n - 1);
  };
  const current = () => {
    const i = currentIndex();
    return i === -1 ? null : targets()[i]!.key;
  };

  let list: VirtualHandle | undefined;
  const reveal = () => {
    const i = currentIndex();
    if (i === -1 || !list) return;
    const t = targets()[i]!;
    list.scrollTo(t.entry, (row) => {
      const el = row.querySelector<HTMLElement>(`[data-key="${t.key}"]`);
      if (el && (el.getBoundingClientRect().top < SCROLL_MARGIN || el.getBoundingClientRect().bottom > window.innerHeight)) {
        window.scrollBy({ top: el.getBoundingClientRect().top - SCROLL_MARGIN });
      }
    });
  };
  // A new set of matches, or a move to another match, scrolls to it.
  createEffect(on([targets, currentIndex], () => reveal(), { defer: false }));
  const step = (by: number) => {
    const n = targets().length;
    if (n === 0) return;
    setFind({ match: (currentIndex() + by + n) % n });
  };

  // Ctrl/⌘ F opens the find bar while this page has focus (the browser's own find cannot see rows that are
  // not rendered).
  let input: HTMLInputElement | undefined;
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      setBarOpen(true);
      queueMicrotask(() => {
        input?.focus();
        input?.select();
      });
    }
  };
  onMount(() => window.addEventListener('keydown', onKey));
  onCleanup(() => window.removeEventListener('keydown', onKey));

  const tools = createMemo(() => [...new Set(props.outline.calls.map((c) => c.tool))].sort());
  // The page may move to another session without making this anew: the cache and the open calls follow it.
  const cache = createMemo(() => new PayloadCache(props.sessionKey));
  createEffect(
    on(
      () => props.sessionKey,
      () => {
        setFlipped(new Set<number>());
        setAllOpen(false);
      },
      { defer: true },
    ),
  );
  const ctx: RowContext = {
    get sessionKey() {
      return props.sessionKey;
    },
    get threshold() {
      return props.threshold;
    },
    get cache() {
      return cache();
    },
    isOpen,
    toggle,
    q: () => (matches() === null ? '' : find().q),
    matched: (key) => matchedKeys().has(key),
    current,
  };

  const [top, setTop] = createSignal(0);
  const marks = createMemo(() => minimapMarks(entries(), props.outline.summary.duration_ms, targets()));

  return (
    <Show
      when={timeline().length > 0}
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
        <div class="card-actions">
          <button
            type="button"
            class="btn btn-sm"
            aria-expanded={barOpen()}
            aria-label="Find in this session"
            title="Find in this session (Ctrl F or ⌘ F)"
            onClick={() => {
              setBarOpen(!barOpen());
              if (barOpen()) queueMicrotask(() => input?.focus());
            }}
          >
            <Icon name="search" />
            <span class="find-label">Find</span>
          </button>
          <button type="button" class="btn btn-sm" onClick={toggleAll}>
            <Icon name="chevrons-up-down" />
            {allOpen() ? 'Collapse all' : 'Expand all'}
          </button>
        </div>
      </div>
      <Show when={barOpen()}>
        <FindBar
          state={find()}
          tools={tools()}
          count={targets().length}
          current={currentIndex()}
          finding={finding()}
          error={findError()}
          inputRef={(el) => (input = el)}
          onChange={(patch) => setFind({ ...patch, match: 0 })}
          onStep={step}
          onClose={() => {
            setFind({ q: '', tool: null, failed: false, flow: false, match: 0 });
            setBarOpen(false);
          }}
        />
      </Show>
      <Show when={entries().length === 0}>
        <p class="muted">Nothing of this kind in the session.</p>
      </Show>
      <div class="tl-layout">
        <VirtualList
          class="timeline virtual"
          testid="timeline"
          count={entries().length}
          epoch={[entries(), allOpen()]}
          estimate={(i) => estimate(entries()[i], isOpen)}
          margin={SCROLL_MARGIN}
          ref={(h) => (list = h)}
          onTop={setTop}
          row={(i) => (
            <Show when={entries()[i]} keyed>
              {(e) => <EntryRow entry={e} ctx={ctx} />}
            </Show>
          )}
        />
        <Minimap
          entries={entries()}
          marks={marks()}
          durationMs={props.outline.summary.duration_ms}
          top={top()}
          matches={targets().length}
          onJump={(i) => list?.scrollTo(i)}
        />
      </div>
    </Show>
  );
}
