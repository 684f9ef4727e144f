// A long list that renders only the rows near the viewport (the page scrolls, not the list). Rows have
// their own heights: each rendered row is measured, the rest are estimated, and the space of the rows not
// rendered is the list's padding, so the list keeps its full height and the scrollbar stays true. A row's
// state must live outside it: rows come and go as the page scrolls.
import { createEffect, createMemo, createSignal, For, type JSX, on, onCleanup, onMount, untrack } from 'solid-js';

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
  let heights: (number | undefined)[] = [];
  const [version, setVersion] = createSignal(0);
  const [range, setRange] = createSignal({ start: 0, end: 0 });
  const rendered = new Map<number, HTMLElement>();

  // Prefix sums of the rows' heights: offsets[i] is the top of row i, offsets[count] the total.
  const offsets = createMemo(() => {
    version();
    const n = props.count;
    const out = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) out[i + 1] = out[i]! + (heights[i] ?? props.estimate(i));
    return out;
  });

  const update = () => {
    if (!list) return;
    const top = list.getBoundingClientRect().top;
    const from = -top - OVERSCAN_PX;
    const to = -top + window.innerHeight + OVERSCAN_PX;
    const o = offsets();
    const n = props.count;
    // The first row whose bottom is below `from`, the first row whose top is below `to`.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (o[mid + 1]! <= from) lo = mid + 1;
      else hi = mid;
    }
    const start = lo;
    hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (o[mid]! < to) lo = mid + 1;
      else hi = mid;
    }
    const end = Math.min(Math.max(start, lo), start + MAX_ROWS);
    const r = untrack(range);
    if (r.start !== start || r.end !== end) setRange({ start, end });
    if (props.onTop) {
      // A row scrolled to sits at the margin give or take a pixel or two: it counts as the top one.
      const y = -top + (props.margin ?? 0) + 4;
      let a = 0;
      let b = Math.max(0, n - 1);
      while (a < b) {
        const mid = (a + b) >> 1;
        if (o[mid + 1]! <= y) a = mid + 1;
        else b = mid;
      }
      if (a !== lastTop) {
        lastTop = a;
        props.onTop(a);
      }
    }
  };
  let lastTop = -1;

  let frame = 0;
  const schedule = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      update();
    });
  };

  createEffect(
    on(
      () => props.epoch,
      () => {
        heights = [];
        setVersion((v) => v + 1);
      },
    ),
  );
  createEffect(on([offsets, () => props.count], () => update()));

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

  onMount(() => {
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    update();
  });
  onCleanup(() => {
    window.removeEventListener('scroll', schedule);
    window.removeEventListener('resize', schedule);
    cancelAnimationFrame(frame);
    observer.disconnect();
  });

  const indices = createMemo(() => {
    const { start, end } = range();
    const out: number[] = [];
    for (let i = start; i < Math.min(end, props.count); i++) out.push(i);
    return out;
  });

  let scrolls = 0;
  // A person scrolling ends the holding of a row scrolled to.
  const stop = () => scrolls++;
  onMount(() => {
    for (const ev of ['wheel', 'touchstart', 'mousedown'] as const) window.addEventListener(ev, stop, { passive: true });
  });
  onCleanup(() => {
    for (const ev of ['wheel', 'touchstart', 'mousedown'] as const) window.removeEventListener(ev, stop);
  });
  const handle: VirtualHandle = {
    element: (i) => rendered.get(i),
    scrollTo(index, done) {
      if (!list || index < 0 || index >= props.count) return;
      // A newer scrollTo takes over: the settling of this one stops.
      const mine = ++scrolls;
      const margin = props.margin ?? 0;
      const go = () => window.scrollTo({ top: window.scrollY + list!.getBoundingClientRect().top + offsets()[index]! - margin });
      go();
      update();
      // Rows measured on the way may move the target: settle over a few frames, then hand it over, and keep
      // it in place a little longer while the rows around it are measured (a user's scroll ends that).
      let tries = 0;
      let held = 0;
      let handed = false;
      const settle = () => {
        if (mine !== scrolls) return;
        const el = rendered.get(index);
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
          update();
          requestAnimationFrame(settle);
        }
      };
      requestAnimationFrame(settle);
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
              observer.observe(el);
              onCleanup(() => {
                observer.unobserve(el);
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
