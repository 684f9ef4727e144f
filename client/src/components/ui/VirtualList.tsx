// A long list that renders only the rows near the viewport (the page scrolls, not the list). Rows have
// their own heights: each rendered row is measured, the rest are estimated, and the space of the rows not
// rendered is the list's padding, so the list keeps its full height and the scrollbar stays true. A row's
// state must live outside it: rows come and go as the page scrolls.
import { createEffect, createMemo, createSignal, For, type JSX, on, onCleanup, onMount, untrack } from 'solid-js';
import { indicesFrom, rowAt, rowOffsets, visibleRange } from '../../lib/virtual.ts';

export interface VirtualHandle {
  /** Scrolls so the row is in view (its top `margin` px below the viewport's top); `done` runs once it is rendered. */
  scrollTo(index: number, done?: (el: HTMLElement) => void): void;
  /** The rendered element of a row, if it is rendered. */
  element(index: number): HTMLElement | undefined;
}

/** Rows rendered beyond the viewport, in pixels each way. */
const OVERSCAN_PX = 800;
/** Rows rendered at most, however tall the viewport (a full-page screenshot makes it the page's height). */
const MAX_ROWS = 60;

export function VirtualList(props: {
  count: number;
  /** A row's estimated height before it is measured. */
  estimate: (index: number) => number;
  /** Changes whenever the rows' identities change (a new filter): measured heights are forgotten. */
  epoch: unknown;
  row: (index: number) => JSX.Element;
  class?: string;
  ref?: (h: VirtualHandle) => void;
  /** Space kept above a row scrolled to (a sticky bar). */
  margin?: number;
  /** Told the row at the viewport's top (below the margin) whenever it changes. */
  onTop?: (index: number) => void;
  testid?: string;
}) {
  let list: HTMLOListElement | undefined;
  const measured = createMeasuredHeights(() => props.epoch);
  const [range, setRange] = createSignal({ start: 0, end: 0 });
  const rendered = new Map<number, HTMLElement>();

  // Prefix sums of the rows' heights: offsets[i] is the top of row i, offsets[count] the total.
  const offsets = createMemo(() => {
    const heights = measured.heights();
    return rowOffsets(props.count, (i) => heights[i] ?? props.estimate(i));
  });

  let lastTop = -1;
  const update = () => {
    if (!list) return;
    const top = list.getBoundingClientRect().top;
    const o = offsets();
    const next = visibleRange(o, props.count, -top - OVERSCAN_PX, -top + window.innerHeight + OVERSCAN_PX, MAX_ROWS);
    const r = untrack(range);
    if (r.start !== next.start || r.end !== next.end) setRange(next);
    if (props.onTop) {
      // A row scrolled to sits at the margin give or take a pixel or two: it counts as the top one.
      const at = rowAt(o, props.count, -top + (props.margin ?? 0) + 4);
      if (at !== lastTop) {
        lastTop = at;
        props.onTop(at);
      }
    }
  };

  let frame = 0;
  const schedule = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      update();
    });
  };

  createEffect(on([offsets, () => props.count], () => update()));

  onMount(() => {
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    update();
  });
  onCleanup(() => {
    window.removeEventListener('scroll', schedule);
    window.removeEventListener('resize', schedule);
    cancelAnimationFrame(frame);
  });

  const indices = createMemo(() => indicesFrom(range().start, Math.min(range().end, props.count)));

  let scrolls = 0;
  // A person scrolling ends the holding of a row scrolled to.
  onUserScroll(() => scrolls++);
  // So does this list going away: a list made anew (its page reloaded its data) scrolls on its own, and a
  // settle loop left running here would keep moving the window to a row of the old one (the minimap test
  // once saw the page jump back to the end after Home).
  onCleanup(() => scrolls++);
  const handle: VirtualHandle = {
    element: (i) => rendered.get(i),
    scrollTo(index, done) {
      if (!list || index < 0 || index >= props.count) return;
      // A newer scrollTo takes over: the settling of this one stops.
      const mine = ++scrolls;
      const margin = props.margin ?? 0;
      const go = () => {
        window.scrollTo({ top: window.scrollY + list!.getBoundingClientRect().top + offsets()[index]! - margin });
        update();
      };
      go();
      settleOn(() => rendered.get(index), margin, () => mine === scrolls, go, done);
    },
  };
  props.ref?.(handle);

  return (
    <ol
      ref={list}
      class={props.class}
      data-testid={props.testid}
      style={{ 'padding-top': `${offsets()[range().start] ?? 0}px`, 'padding-bottom': `${(offsets()[props.count] ?? 0) - (offsets()[Math.min(range().end, props.count)] ?? 0)}px` }}
    >
      <For each={indices()}>
        {(i) => (
          <li
            data-row={i}
            ref={(el) => {
              rendered.set(i, el);
              measured.observe(el);
              onCleanup(() => {
                measured.unobserve(el);
                if (rendered.get(i) === el) rendered.delete(i);
              });
            }}
            class="vrow"
          >
            {props.row(i)}
          </li>
        )}
      </For>
    </ol>
  );
}

/**
 * The rows' measured heights (by index), as a signal: a ResizeObserver measures each rendered row; a new
 * epoch (new rows) forgets them. The array is mutated in place and announced by a fresh signal value.
 */
function createMeasuredHeights(epoch: () => unknown) {
  let heights: (number | undefined)[] = [];
  const [version, setVersion] = createSignal(0);
  createEffect(
    on(epoch, () => {
      heights = [];
      setVersion((v) => v + 1);
    }),
  );
  const observer = new ResizeObserver((items) => {
    let changed = false;
    for (const it of items) {
      const el = it.target as HTMLElement;
      const i = Number(el.dataset.row);
      const h = el.getBoundingClientRect().height;
      if (h > 0 && heights[i] !== h) {
        heights[i] = h;
        changed = true;
      }
    }
    if (changed) setVersion((v) => v + 1);
  });
  onCleanup(() => observer.disconnect());
  return {
    heights: (): readonly (number | undefined)[] => {
      version();
      return heights;
    },
    observe: (el: HTMLElement) => observer.observe(el),
    unobserve: (el: HTMLElement) => observer.unobserve(el),
  };
}

/** A wheel, a touch or a press anywhere: the person is scrolling. */
function onUserScroll(handler: () => void) {
  const events = ['wheel', 'touchstart', 'mousedown'] as const;
  onMount(() => {
    for (const ev of events) window.addEventListener(ev, handler, { passive: true });
  });
  onCleanup(() => {
    for (const ev of events) window.removeEventListener(ev, handler);
  });
}

/**
 * After a scroll to a row: rows measured on the way may move it, so settle over a few frames, then hand it
 * over (`done`), and keep it in place a little longer while the rows around it are measured. Stops as soon
 * as `current()` says a newer scroll, or the person, took over.
 */
function settleOn(row: () => HTMLElement | undefined, margin: number, current: () => boolean, go: () => void, done?: (el: HTMLElement) => void) {
  let tries = 0;
  let held = 0;
  let handed = false;
  const settle = () => {
    if (!current()) return;
    const el = row();
    if (el) {
      const off = el.getBoundingClientRect().top - margin;
      if (Math.abs(off) > 2 && tries < 6 + held) {
        window.scrollBy({ top: off });
        tries++;
      } else if (!handed) {
        handed = true;
        // A caller that places something inside the row takes over from here.
        if (done) return done(el);
      }
      if (held++ < 20) requestAnimationFrame(settle);
      return;
    }
    if (tries++ < 10) {
      go();
      requestAnimationFrame(settle);
    }
  };
  requestAnimationFrame(settle);
}
