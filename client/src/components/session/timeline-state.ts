// The session timeline's state, apart from what it renders: which calls are open, the find's state in the
// URL and the rows its matches fall in, scrolling to a match, the Ctrl/⌘ F shortcut, and what the rows read.
import { useSearchParams } from '@solidjs/router';
import { createEffect, createMemo, createSignal, on, onCleanup, onMount } from 'solid-js';
import type { FindMatch } from '../../../../shared/session-views.ts';
import { type Entry, findParams, findTargets, NO_FIND, readFindState, type FindState, type Target } from '../../lib/session-find.ts';
import type { VirtualHandle } from '../ui/VirtualList.tsx';
import type { PayloadCache } from '../../data/payload-cache.ts';
import type { RowContext } from './TimelineRows.tsx';

/** The find bar and the minimap keep this much of the viewport's top clear when they scroll to a row. */
export const SCROLL_MARGIN = 170;

/** Which calls are open, outside the rows (they come and go as the page scrolls); the current find match's is too. */
export function createOpenCalls(sessionKey: () => string) {
  const [allOpen, setAllOpen] = createSignal(false);
  const [flipped, setFlipped] = createSignal<ReadonlySet<number>>(new Set());
  // The call the current find match (or a deep link) is in: open while it is the one shown, shut again after.
  const [shown, setShown] = createSignal<number | null>(null);
  const byChoice = (n: number) => allOpen() !== flipped().has(n);
  const isOpen = (n: number) => byChoice(n) || shown() === n;
  const flip = (n: number) => {
    const s = new Set(flipped());
    if (s.has(n)) s.delete(n);
    else s.add(n);
    setFlipped(s);
  };
  const toggle = (n: number) => {
    if (shown() !== n) return flip(n);
    // The shown call is open: a click shuts it.
    setShown(null);
    if (byChoice(n)) flip(n);
  };
  const toggleAll = () => {
    setFlipped(new Set<number>());
    setAllOpen(!allOpen());
  };
  // The page may move to another session without making the timeline anew: the open calls follow it.
  createEffect(
    on(
      sessionKey,
      () => {
        setFlipped(new Set<number>());
        setAllOpen(false);
        setShown(null);
      },
      { defer: true },
    ),
  );
  return { allOpen, isOpen, toggle, toggleAll, show: setShown };
}

/** The rows the find's matches fall in, and which of them is the current one (the URL's `match`). */
export function createFindTargets(entries: () => Entry[], matches: () => FindMatch[] | null, match: () => number, setMatch: (match: number) => void) {
  const targets = createMemo(() => {
    const m = matches();
    return m === null ? [] : findTargets(entries(), m);
  });
  const matchedKeys = createMemo(() => new Set(targets().map((t) => t.key)));
  const currentIndex = () => {
    const n = targets().length;
    return n === 0 ? -1 : Math.min(match(), n - 1);
  };
  const current = () => {
    const i = currentIndex();
    return i === -1 ? null : targets()[i]!.key;
  };
  /** To the next match (1) or the one before (-1), round the end. */
  const step = (by: number) => {
    const n = targets().length;
    if (n === 0) return;
    setMatch((currentIndex() + by + n) % n);
  };
  return { targets, matchedKeys, currentIndex, current, step };
}

/**
 * The call shown open and in view: the current find match's (a match deep in a payload shows only there),
 * else the one the address points at; each new match, or a move to another, scrolls to it.
 */
export function followShown(s: {
  targets: () => Target[];
  currentIndex: () => number;
  current: () => string | null;
  linked: () => number | null;
  entries: () => Entry[];
  showCall: (n: number | null) => void;
  list: () => VirtualHandle | undefined;
}) {
  createEffect(
    on([s.targets, s.currentIndex], () => {
      const key = s.current();
      s.showCall(key !== null && key.startsWith('c') ? Number(key.slice(1)) : s.linked());
      const i = s.currentIndex();
      const list = s.list();
      if (i !== -1 && list) revealMatch(list, s.targets()[i]!);
    }),
  );
  createEffect(
    on(s.linked, (n) => {
      if (n === null || s.current() !== null) return;
      s.showCall(n);
      const t = findTargets(s.entries(), [{ kind: 'call', n, fields: [] }])[0];
      const list = s.list();
      if (t && list) revealMatch(list, t);
    }),
  );
}

/** Scrolls to a match's row, then places the match itself below the find bar. */
export function revealMatch(list: VirtualHandle, t: { entry: number; key: string }) {
  list.scrollTo(t.entry, (row) => {
    const el = row.querySelector<HTMLElement>(`[data-key="${t.key}"]`);
    if (el && (el.getBoundingClientRect().top < SCROLL_MARGIN || el.getBoundingClientRect().bottom > window.innerHeight)) {
      window.scrollBy({ top: el.getBoundingClientRect().top - SCROLL_MARGIN });
    }
  });
}

/** Ctrl/⌘ F, while this page is open. */
export function onFindShortcut(open: () => void) {
  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      open();
    }
  };
  onMount(() => window.addEventListener('keydown', onKey));
  onCleanup(() => window.removeEventListener('keydown', onKey));
}

/** The find's state (text, filters, which match) lives in the URL, so a link opens the same find. */
export function createFindUrlState() {
  const [search, setSearch] = useSearchParams();
  const find = createMemo<FindState>(() => readFindState(search as Record<string, string | string[] | undefined>), NO_FIND, {
    equals: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  });
  const setFind = (patch: Partial<FindState>) => setSearch(findParams({ ...find(), ...patch }), { replace: true, scroll: false });
  return { find, setFind };
}

/** What the rows read, with the session's key, threshold and cache followed as they change. */
export function rowContext(
  props: { sessionKey: string; threshold: number },
  cache: () => PayloadCache,
  parts: Omit<RowContext, 'sessionKey' | 'threshold' | 'cache'>,
): RowContext {
  return {
    get sessionKey() {
      return props.sessionKey;
    },
    get threshold() {
      return props.threshold;
    },
    get cache() {
      return cache();
    },
    ...parts,
  };
}
