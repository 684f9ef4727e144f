// How a page loads its data (STYLE §8, ui.md §4.2). A fetch per source value; a new load aborts the one in
// flight and late answers are dropped. A first load's error is the page's error state; a refresh (after a
// `changed` or `job` event, coalesced over 250 ms) keeps the old data on screen, dimmed, and a failed
// refresh is a toast. A first load waits (briefly) for the event stream to be open, and a load begun before
// the stream (re)opened is done again when it opens (api/events.ts): the page's first loads are not all
// done twice. A first load the app began as it started (data/early-loads.ts) is taken as it is. A refresh
// never cuts a first load short: it follows it (aborting made a slow answer slower). A 401 does nothing
// here: the shell shows the sign-in screen.
import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import { ApiError, isAbort } from '../api/client.ts';
import { streamIsReady, streamOpens, streamReady } from '../api/events.ts';
import { toast } from '../stores/toasts.ts';
import type { EarlyLoad } from './early-loads.ts';
import { followRefreshes, followsEvents, itemRemoving, type RefreshTriggers } from './resource-refreshes.ts';
import { errorText } from '../../../shared/error-text.ts';

export interface ApiResourceOptions<S, T> extends RefreshTriggers<S> {
  /** A first load already begun for this source (data/early-loads.ts), taken instead of fetching. */
  early?: (source: S) => EarlyLoad<T> | undefined;
}

export interface ApiResource<T> {
  data: Accessor<T | undefined>;
  error: Accessor<ApiError | undefined>;
  /** Nothing to show yet: skeletons. */
  loading: Accessor<boolean>;
  /** A reload with data on screen: dim it. */
  refreshing: Accessor<boolean>;
  refetch: () => void;
  refresh: () => void;
  mutate: (value: T) => void;
}

const sameSource = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createApiResource<S, T>(
  source: Accessor<S | false | null | undefined>,
  fetcher: (source: S, signal: AbortSignal) => Promise<T>,
  options: ApiResourceOptions<S, T> = {},
): ApiResource<T> {
  const [data, setData] = createSignal<T | undefined>(undefined);
  const [error, setError] = createSignal<ApiError | undefined>(undefined);
  const [pending, setPending] = createSignal(false);
  let controller: AbortController | null = null;
  let generation = 0;
  let current: S | null = null;
  /** A first load is in flight, and a refresh waits for it. */
  let firstInFlight = false;
  let refreshAfter = false;
  /** The stream's opens when the shown (or coming) data's load began; null before any. */
  let loadOpens: number | null = null;
  const follows = followsEvents(options);

  function settled(): void {
    firstInFlight = false;
    if (!refreshAfter) return;
    refreshAfter = false;
    // Asked for during the first load: not if the item is being moved to the trash meanwhile.
    if (!itemRemoving(options, current)) load('refresh');
  }

  function load(kind: 'first' | 'refresh'): void {
    const s = current;
    if (s === null) return;
    if (kind === 'refresh' && firstInFlight) {
      refreshAfter = true;
      return;
    }
    refreshAfter = false;
    firstInFlight = kind === 'first';
    controller?.abort();
    const ctrl = new AbortController();
    controller = ctrl;
    const g = ++generation;
    setPending(true);
    if (kind === 'first') setError(undefined);
    const early = kind === 'first' ? options.early?.(s) : undefined;
    if (early) answer(early.value, kind, g, early.opens);
    else if (follows && kind === 'first' && loadOpens === null && !streamIsReady()) void streamReady().then(() => g === generation && start(s, kind, ctrl, g));
    else start(s, kind, ctrl, g);
  }

  /** The fetch itself, once the load may begin. */
  function start(s: S, kind: 'first' | 'refresh', ctrl: AbortController, g: number): void {
    answer(fetcher(s, ctrl.signal), kind, g, streamOpens());
  }

  /** Takes a load's answer (`opens`: the stream's opens when it began). */
  function answer(loading: Promise<T>, kind: 'first' | 'refresh', g: number, opens: number): void {
    loadOpens = opens;
    loading.then(
      (value) => {
        if (g !== generation) return;
        // A refresh that brings the same data keeps the old value: the page's derived views (a timeline's
        // measured rows, its scroll position) are not rebuilt for nothing (every open resource is refreshed
        // when the event stream opens, most of them unchanged).
        const same = kind === 'refresh' && data() !== undefined && sameSource(data(), value);
        batch(() => {
          if (!same) setData(() => value);
          setError(undefined);
          setPending(false);
        });
        settled();
      },
      (e: unknown) => {
        if (g !== generation || isAbort(e)) return;
        const err = e instanceof ApiError ? e : new ApiError(500, errorText(e));
        batch(() => {
          setPending(false);
          if (err.status === 401) return;
          if (kind === 'first' || data() === undefined) {
            setData(undefined);
            setError(err);
          } else {
            toast({ kind: 'error', title: 'Could not refresh', message: err.message });
          }
        });
        settled();
      },
    );
  }

  let lastSource: unknown = Symbol('none');
  createEffect(
    on(source, (s) => {
      if (s === false || s === null || s === undefined) {
        // Nothing to follow now; the same source coming back is a new start (it loads, and events reach it).
        current = null;
        lastSource = Symbol('none');
        return;
      }
      if (sameSource(s, lastSource)) return;
      lastSource = s;
      current = s;
      load('first');
    }),
  );

  const stopFollowing = followRefreshes(options, () => current, () => loadOpens, () => load('refresh'));

  onCleanup(() => {
    controller?.abort();
    stopFollowing();
  });

  return {
    data,
    error,
    loading: () => pending() && data() === undefined,
    refreshing: () => pending() && data() !== undefined,
    refetch: () => load('first'),
    refresh: () => load('refresh'),
    mutate: (value: T) => setData(() => value),
  };
}
