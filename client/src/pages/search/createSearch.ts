// A search as it runs: pages asked one after another while the answer has a next cursor, sessions shown
// as each page arrives, with how many logs were searched so far. A newer search aborts the older request,
// so the server stops searching for it.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { SearchItem } from '../../../../shared/search.ts';
import { errorText } from '../../../../shared/error-text.ts';
import { type SearchParams, searchSessions } from '../../api/endpoints.ts';

export interface RunningSearch {
  items: Accessor<SearchItem[]>;
  searched: Accessor<number>;
  total: Accessor<number>;
  running: Accessor<boolean>;
  error: Accessor<string | null>;
}

/** How many sessions one search shows at most (the rest: narrow the search). */
const SHOWN_MAX = 1000;

export function createSearch(params: Accessor<SearchParams | null>): RunningSearch {
  const [items, setItems] = createSignal<SearchItem[]>([]);
  const [searched, setSearched] = createSignal(0);
  const [total, setTotal] = createSignal(0);
  const [running, setRunning] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let ctrl: AbortController | null = null;
  const run = async (p: SearchParams, signal: AbortSignal) => {
    let cursor: string | null = null;
    let shown = 0;
    do {
      const a = await searchSessions({ ...p, cursor }, { signal });
      if (signal.aborted) return;
      shown += a.items.length;
      setItems((xs) => [...xs, ...a.items]);
      setSearched(a.searched);
      setTotal(a.total);
      cursor = a.next_cursor;
    } while (cursor !== null && shown < SHOWN_MAX);
  };
  createEffect(
    on(params, (p) => {
      ctrl?.abort();
      setItems([]);
      setSearched(0);
      setError(null);
      if (p === null) return setRunning(false);
      const mine = new AbortController();
      ctrl = mine;
      setRunning(true);
      run(p, mine.signal).then(
        () => !mine.signal.aborted && setRunning(false),
        (e: unknown) => {
          if (mine.signal.aborted) return;
          setError(errorText(e));
          setRunning(false);
        },
      );
    }),
  );
  onCleanup(() => ctrl?.abort());
  return { items, searched, total, running, error };
}
