// The sessions list: search, mode, a UTC day range, the top bar's domain filter, the column order and the
// page, all kept in the URL query as history entries (Back undoes a filter or a page), 50 a page, refreshed
// as sessions are written. A new page scrolls the list back to its top; its header row stays in view.
import { createEffect, createSignal, Show } from 'solid-js';
import type { SessionMode, SessionSort, SortOrder } from '../../../shared/sessions.ts';
import { SESSIONS_LIMIT_DEFAULT } from '../../../shared/limits.ts';
import { getSessions, sessionsOtlpUrl } from '../api/endpoints.ts';
import { SessionsTable, sortOrderFor } from '../components/session/SessionsTable.tsx';
import { rangeWords } from '../components/ui/DateRange.tsx';
import { IndexingNotice } from '../components/ui/IndexingNotice.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Card, PageHeader, Pagination, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { compareOrder, tick } from '../lib/compare.ts';
import { formatCount } from '../lib/format.ts';
import { domain, setDomain } from '../stores/domain.ts';
import { NoSessions, SessionsFilters } from './sessions/SessionsFilters.tsx';
import { createSearchText, createSessionsUrl, type ModeChoice } from './sessions/sessions-url.ts';

const modeFilter = (m: ModeChoice): SessionMode | null => (m === 'all' ? null : m);

export default function SessionsPage() {
  useTitle(() => 'Sessions');
  const { q, mode, surprised, offset, from, to, sort, order, go } = createSessionsUrl();
  const [text, setText] = createSearchText(q, go);

  const setMode = (m: ModeChoice) => go({ mode: m === 'all' ? undefined : m });
  const setSurprised = (only: boolean) => go({ surprised: only ? 'true' : undefined });
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

  const newestFirst = () => sort() === 'started' && order() === 'desc';
  const query = () => ({
    q: q(),
    mode: modeFilter(mode()),
    surprised: surprised() ? true : null,
    domain: domain(),
    limit: SESSIONS_LIMIT_DEFAULT,
    offset: offset(),
    from: from() || null,
    to: from() && to() && from() > to() ? null : to() || null,
    sort: newestFirst() ? null : sort(),
    order: newestFirst() ? null : order(),
  });
  const res = createApiResource(query, (s, signal) => getSessions(s, { signal }), { topics: ['sessions'] });
  const filtered = () => q() !== '' || mode() !== 'all' || surprised() || domain() !== null || from() !== '' || to() !== '';
  const total = () => res.data()?.total ?? 0;
  const countText = () =>
    `${formatCount(total())} ${total() === 1 ? 'session' : 'sessions'}${filtered() ? (total() === 1 ? ' matches' : ' match') : ''}${from() || to() ? ` ${rangeWords(from(), to())}` : ''}`;
  // Two ticked sessions can be compared; the one started first goes on side A.
  const [ticked, setTicked] = createSignal<string[]>([]);
  const starts = new Map<string, number>();
  createEffect(() => res.data()?.items.forEach((s) => starts.set(s.key, s.started_unix_ms)));
  const pair = () => compareOrder(ticked(), (k) => starts.get(k));
  const ticks = { ticked, onTick: (key: string, on: boolean) => setTicked(tick(ticked(), key, on)) };
  const clear = () => {
    setText('');
    setDomain(null);
    go({ q: undefined, mode: undefined, surprised: undefined, domain: undefined, from: undefined, to: undefined });
  };
  const oldestFirst = () => sort() === 'started' && order() === 'asc';

  return (
    <div class="page">
      <PageHeader title="Sessions" sub="Every session engine-proxy recorded, newest first unless you sort by a column: the agent’s calls, and the flow’s lookups and why." />
      <SessionsFilters
        text={text()}
        onText={setText}
        mode={mode()}
        onMode={setMode}
        surprised={surprised()}
        onSurprised={setSurprised}
        from={from()}
        to={to()}
        onRange={setRange}
        count={res.data() ? countText() : null}
        ticked={ticked().length}
        pair={pair()}
        otlpHref={sessionsOtlpUrl({ q: q(), mode: modeFilter(mode()), surprised: surprised() ? 'true' : null, domain: domain(), from: from() || null, to: to() || null }, ticked())}
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
                    offset={offset()}
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
