// What the command palette searches besides pages and actions: the servers and flows (loaded when it opens,
// at most every 30 s) and the sessions, searched on the server 140 ms after the last key (the newest four
// with no query). A newer search aborts the one in flight; failures leave the lists as they were.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import type { FlowSummary } from '../../../shared/flows.ts';
import type { ServerView } from '../../../shared/servers.ts';
import { isAbort } from '../api/client.ts';
import { getFlows, getServers, getSessions } from '../api/endpoints.ts';
import { sessionEntry, type PaletteEntry } from '../lib/palette.ts';

const LISTS_FRESH_MS = 30_000;
const SEARCH_AFTER_MS = 140;

interface PaletteSources {
  servers: Accessor<ServerView[]>;
  flows: Accessor<FlowSummary[]>;
  /** The sessions found, as entries (their times relative to when they came). */
  sessions: Accessor<PaletteEntry[]>;
  searching: Accessor<boolean>;
}

export function createPaletteSources(open: Accessor<boolean>, query: Accessor<string>): PaletteSources {
  const [servers, setServers] = createSignal<ServerView[]>([]);
  const [flows, setFlows] = createSignal<FlowSummary[]>([]);
  const [sessions, setSessions] = createSignal<PaletteEntry[]>([]);
  const [searching, setSearching] = createSignal(false);
  let listsAt = 0;
  let search: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const loadLists = () => {
    if (Date.now() - listsAt < LISTS_FRESH_MS) return;
    listsAt = Date.now();
    getServers().then((s) => setServers(s.items), () => {});
    getFlows().then((f) => setFlows(f.items), () => {});
  };
  const runSearch = (q: string) => {
    search?.abort();
    const ctrl = new AbortController();
    search = ctrl;
    setSearching(true);
    getSessions({ q: q.trim(), limit: q.trim() ? 8 : 4 }, { signal: ctrl.signal }).then(
      (list) => {
        if (search !== ctrl) return;
        setSearching(false);
        const now = Date.now();
        setSessions(list.items.map((s) => sessionEntry(s, now)));
      },
      (e: unknown) => {
        if (!isAbort(e) && search === ctrl) setSearching(false);
      },
    );
  };

  createEffect(
    on(open, (isOpen) => {
      if (!isOpen) return;
      loadLists();
      runSearch('');
    }),
  );
  createEffect(
    on(
      query,
      (q) => {
        clearTimeout(timer);
        timer = setTimeout(() => runSearch(q), SEARCH_AFTER_MS);
      },
      { defer: true },
    ),
  );
  onCleanup(() => {
    clearTimeout(timer);
    search?.abort();
  });
  return { servers, flows, sessions, searching };
}
