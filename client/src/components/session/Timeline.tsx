// A session's timeline from its outline: conversation bubbles and LLM turns in time order; per turn a card
// per agent call (arguments → result in short, the whole payload fetched when opened) with the flow's
// read-ahead under it: each decision (made, in shadow or handed back) against the threshold, and the
// lookup it made. The list is virtualized (only rows near the viewport exist), so "Expand all" and
// scrolling stay quick on thousands of calls; what is open lives here, not in the rows. The find bar and
// the minimap sit beside it. Every tool name, argument, result and message is rendered as text.
import { createMemo, createSignal, Show } from 'solid-js';
import type { SessionOutline } from '../../../../shared/session-views.ts';
import { createSessionFind } from '../../data/createSessionFind.ts';
import { callKey, filterEntries, filtering, minimapMarks, timelineOf, type ShowMode } from '../../lib/session-find.ts';
import { createCallAddress } from './call-address.ts';
import { VirtualList, type VirtualHandle } from '../ui/VirtualList.tsx';
import { PayloadCache } from '../../data/payload-cache.ts';
import { FindBar } from './FindBar.tsx';
import { Minimap } from './Minimap.tsx';
import { TimelineBars } from './TimelineBars.tsx';
import { EntryRow, estimate } from './TimelineRows.tsx';
import { createFindTargets, createFindUrlState, createOpenCalls, followShown, onFindShortcut, rowContext, SCROLL_MARGIN } from './timeline-state.ts';

export function SessionTimeline(props: { outline: SessionOutline; sessionKey: string; threshold: number }) {
  const timeline = createMemo(() => timelineOf(props.outline));
  const { find, setFind } = createFindUrlState();
  const [barOpen, setBarOpen] = createSignal(find().q !== '' || filtering(find()));

  // What to show: everything, the calls alone, the conversation alone, or only the turns with a failed call.
  const [show, setShow] = createSignal<ShowMode>('all');
  const entries = createMemo(() => filterEntries(timeline(), show(), find()));
  const failed = () => props.outline.calls.filter((c) => c.by === 'agent' && c.ok !== true).length;

  // Open state, outside the rows: "Expand all" flips the default, a click flips one call against it.
  const { allOpen, isOpen, toggle, toggleAll, show: showCall } = createOpenCalls(() => props.sessionKey);

  // A memo of the text alone: moving to another match changes the URL, not the text, and must not search again.
  const findText = createMemo(() => find().q);
  const found = createSessionFind(() => props.sessionKey, findText);
  const matches = found.matches;

  // An address of one call (`?line=N`): that call opens, in view and outlined, until a find takes over.
  const { linked, lineOf } = createCallAddress(() => props.sessionKey);

  const { targets, matchedKeys, currentIndex, current, step } = createFindTargets(entries, matches, () => find().match, (match) => setFind({ match }));
  let list: VirtualHandle | undefined;
  followShown({ targets, currentIndex, current, linked, entries, showCall, list: () => list });

  // Ctrl/⌘ F opens the find bar while this page has focus (the browser's own find cannot see rows that are
  // not rendered).
  let input: HTMLInputElement | undefined;
  onFindShortcut(() => {
    setBarOpen(true);
    queueMicrotask(() => {
      input?.focus();
      input?.select();
    });
  });

  const tools = createMemo(() => [...new Set(props.outline.calls.map((c) => c.tool))].sort());
  // The page may move to another session without making this anew: the cache follows it.
  const cache = createMemo(() => new PayloadCache(props.sessionKey));
  const ctx = rowContext(props, cache, {
    isOpen,
    toggle,
    q: () => (matches() === null ? '' : find().q),
    matched: (key) => matchedKeys().has(key),
    current: () => current() ?? (linked() === null ? null : callKey(linked()!)),
    lineOf,
  });

  const [top, setTop] = createSignal(0);
  const marks = createMemo(() => minimapMarks(entries(), props.outline.summary.duration_ms, targets()));

  return (
    <Show
      when={timeline().length > 0}
      fallback={<p class="muted">This session has no calls and no conversation: the host connected and listed the tools, and nothing more.</p>}
    >
      <TimelineBars
        show={show()}
        onShow={setShow}
        failed={failed()}
        barOpen={barOpen()}
        onFind={() => {
          setBarOpen(!barOpen());
          if (barOpen()) queueMicrotask(() => input?.focus());
        }}
        allOpen={allOpen()}
        onToggleAll={toggleAll}
      />
      <Show when={barOpen()}>
        <FindBar
          state={find()}
          tools={tools()}
          count={targets().length}
          current={currentIndex()}
          finding={found.finding()}
          error={found.error()}
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
