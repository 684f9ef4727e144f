// The sessions list: search, mode, a UTC day range, the top bar's domain filter, the column order and the
// page, all kept in the URL query as history entries (Back undoes a filter or a page), 50 a page, refreshed
// as sessions are written. A new page scrolls the list back to its top; its header row stays in view.
import { createEffect, createSignal, Show } from 'solid-js';
import type { SessionMode, SessionSort, SessionsQuery, SortOrder } from '../../../shared/sessions.ts';
import { SEARCH_TEXT_MAX, SEARCH_TEXT_MIN, SESSIONS_LIMIT_DEFAULT } from '../../../shared/limits.ts';
import { getSessions, sessionsOtlpUrl } from '../api/endpoints.ts';
import { SessionsTable, sortOrderFor } from '../components/session/SessionsTable.tsx';
import { IndexingNotice } from '../components/ui/IndexingNotice.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Card, PageHeader, Pagination, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { compareOrder, tick } from '../lib/compare.ts';
import { searchHref } from '../lib/search-links.ts';
import { domain, setDomain } from '../stores/domain.ts';
import { NoSessions, SessionsFilters } from './sessions/SessionsFilters.tsx';
import { MoreFilters } from './sessions/MoreFilters.tsx';
import { BulkActions } from './sessions/BulkActions.tsx';
import { countWords } from './sessions/count-words.ts';
import { createSearchText, createSessionsUrl, type ModeChoice } from './sessions/sessions-url.ts';

const modeFilter = (m: ModeChoice): SessionMode | null => (m === 'all' ? null : m);

/** The list's request for the URL's state: the newest-first order and empty filters are left to the server. */
function listQuery(url: ReturnType<typeof createSessionsUrl>, domain: string | null): Partial<SessionsQuery> {
  const { from, to } = url;
  const newestFirst = url.sort() === 'started' && url.order() === 'desc';
  return {
    q: url.q(),
    mode: modeFilter(url.mode()),
    domain,
    limit: SESSIONS_LIMIT_DEFAULT,
    offset: url.offset(),
    from: from() || null,
    to: from() && to() && from() > to() ? null : to() || null,
    sort: newestFirst ? undefined : url.sort(),
    order: newestFirst ? undefined : url.order(),
    since: url.since(),
    agent: url.agent() || null,
    tool: url.tool() || null,
    has: url.has(),
  };
}

export default function SessionsPage() {
  useTitle(() => 'Sessions');
  const url = createSessionsUrl();
  const { q, mode, from, to, sort, order, since, agent, tool, has, go } = url;
  const [text, setText] = createSearchText(q, go);

  const setMode = (m: ModeChoice) => go({ mode: m === 'all' ? undefined : m });
  const setRange = (f: string, t: string) => go({ from: f || undefined, to: t || undefined });
  const setSort = (key: SessionSort) => {
    const next: SortOrder = key === sort() ? (order() === 'asc' ? 'desc' : 'asc') : sortOrderFor(key);
    const isDefault = key === 'started' && next === 'desc';
    go({ sort: isDefault ? undefined : key, order: isDefault ? undefined : next });
  };
  let top: HTMLDivElement | undefined;
  const setOffset = (n: number) => {
    go({ offset: n ? String(n) : undefined }, true);
    // The next page starts at the top of the list, not where the pager was: the page and the rows' frame.
    top?.scrollIntoView({ block: 'start' });
    const frame = top?.parentElement?.querySelector('.session-table');
    if (frame) frame.scrollTop = 0;
  };

  const query = () => listQuery(url, domain());
  // Each page keeps the offset it was asked at: the pager names the rows on screen, not the page still loading.
  const res = createApiResource(query, (s, signal) => getSessions(s, { signal }).then((list) => ({ ...list, offset: s.offset ?? 0 })), { topics: ['sessions'] });
  // The box's words searched inside every session's calls instead, with the same filters.
  const insideHref = () => {
    const n = [...text().trim()].length;
    if (n < SEARCH_TEXT_MIN || n > SEARCH_TEXT_MAX) return null;
    return searchHref(text().trim(), { domain: domain(), mode: modeFilter(mode()), from: from(), to: to() });
  };
  const filtered = () =>
    q() !== '' || mode() !== 'all' || domain() !== null || from() !== '' || to() !== '' || since() !== null || agent() !== '' || tool() !== '' || has().length > 0;
  const total = () => res.data()?.total ?? 0;
  const countText = () => countWords({ total: total(), filtered: filtered(), from: from(), to: to(), since: since(), has: has(), sums: res.data()?.sums });
  // Two ticked sessions can be compared; the one started first goes on side A.
  const [ticked, setTicked] = createSignal<string[]>([]);
  const starts = new Map<string, number>();
  const paths = new Map<string, string>();
  createEffect(() =>
    res.data()?.items.forEach((s) => {
      starts.set(s.key, s.started_unix_ms);
      paths.set(s.key, s.path);
    }),
  );
  const pair = () => compareOrder(ticked(), (k) => starts.get(k));
  const ticks = { ticked, onTick: (key: string, on: boolean) => setTicked(tick(ticked(), key, on)) };
  const clear = () => {
    setText('');
    setDomain(null);
    go({ q: undefined, mode: undefined, domain: undefined, from: undefined, to: undefined, since: undefined, agent: undefined, tool: undefined, has: undefined });
  };
  const newestFirst = () => sort() === 'started' && order() === 'desc';
  const oldestFirst = () => sort() === 'started' && order() === 'asc';

  return (
    <div class="page">
      <PageHeader title="Sessions" sub="Every session engine-proxy recorded, newest first unless you sort by a column: the agent’s calls, and the flow’s lookups and why." />
      <SessionsFilters
        text={text()}
        onText={setText}
        insideHref={insideHref()}
        mode={mode()}
        onMode={setMode}
        from={from()}
        to={to()}
        onRange={setRange}
        count={res.data() ? countText() : null}
        ticked={ticked().length}
        pair={pair()}
        otlpHref={sessionsOtlpUrl(query(), ticked())}
      />
      <MoreFilters
        agent={agent()}
        tool={tool()}
        has={has()}
        go={go}
      />
      <BulkActions
        ticked={ticked()}
        pathOf={(k) => paths.get(k)}
        onUntick={() => setTicked([])}
        onChanged={() => {
          setTicked([]);
          res.refetch();
        }}
      />
      <IndexingNotice indexing={res.data()?.indexing} />
      <div ref={top} class="scroll-anchor" />
      <Card label="Sessions" flush>
        <Loaded resource={res} skeleton={<div style={{ padding: '8px 18px' }}><Skeleton lines={10} /></div>}>
          {(list) => (
            <Show when={list().items.length > 0} fallback={<NoSessions filtered={filtered()} domain={domain()} onClear={clear} />}>
              <div class={res.refreshing() ? 'refreshing' : undefined}>
                <SessionsTable items={list().items} hideDomain={domain() !== null} sort={{ key: sort(), order: order(), onSort: setSort }} ticks={ticks} />
                <Show when={total() > SESSIONS_LIMIT_DEFAULT}>
                  <Pagination
                    offset={list().offset}
                    limit={SESSIONS_LIMIT_DEFAULT}
                    total={total()}
                    noun="sessions"
                    onChange={setOffset}
                    prev={newestFirst() ? 'Newer' : oldestFirst() ? 'Older' : 'Previous'}
                    next={newestFirst() ? 'Older' : oldestFirst() ? 'Newer' : 'Next'}
                  />
                </Show>
              </div>
            </Show>
          )}
        </Loaded>
      </Card>
    </div>
  );
}
