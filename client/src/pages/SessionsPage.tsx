// The sessions list: search, mode, a UTC day range, the top bar's domain filter, the column order and the
// page, all kept in the URL query as history entries (Back undoes a filter or a page), 50 a page, refreshed
// as sessions are written. A new page scrolls the list back to its top; its header row stays in view.
import { useSearchParams } from '@solidjs/router';
import { createEffect, createSignal, on, onCleanup, Show } from 'solid-js';
import { SESSION_SORTS, type SessionMode, type SessionSort, type SortOrder } from '../../../shared/sessions.ts';
import { SESSIONS_LIMIT_DEFAULT } from '../../../shared/limits.ts';
import { getSessions } from '../api/endpoints.ts';
import { SessionsTable, sortOrderFor } from '../components/session/SessionsTable.tsx';
import { cleanDay, DateRange, rangeWords } from '../components/ui/DateRange.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, Empty, ErrorState, PageHeader, Pagination, Segmented, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { IndexingNotice } from '../components/ui/IndexingNotice.tsx';
import { formatCount } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { domain, setDomain } from '../stores/domain.ts';

type ModeChoice = 'all' | SessionMode;
const MODES: ModeChoice[] = ['all', 'served', 'shadow', 'recorded'];
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
type Changes = Partial<Record<'q' | 'mode' | 'domain' | 'offset' | 'from' | 'to' | 'sort' | 'order', string | undefined>>;

export default function SessionsPage() {
  useTitle(() => 'Sessions');
  const [params, setParams] = useSearchParams();
  // The URL is the state: each change is a history entry, so Back steps through filters and pages.
  const p = (k: string) => one(params[k]);
  const q = () => p('q').trim();
  const mode = (): ModeChoice => (MODES.includes(p('mode') as ModeChoice) ? (p('mode') as ModeChoice) : 'all');
  const offset = () => Math.max(0, Math.floor(Number(p('offset'))) || 0);
  const from = () => cleanDay(p('from'));
  const to = () => cleanDay(p('to'));
  const sort = (): SessionSort => ((SESSION_SORTS as readonly string[]).includes(p('sort')) ? (p('sort') as SessionSort) : 'started');
  const order = (): SortOrder => (p('order') === 'asc' ? 'asc' : p('order') === 'desc' ? 'desc' : sortOrderFor(sort()));
  /** A change of filters starts again at the first page. */
  const go = (changes: Changes, keepPage = false) => setParams({ ...changes, ...(keepPage ? {} : { offset: undefined }) }, { scroll: false });

  // The top bar's domain and the URL's agree: opening /sessions?domain=x sets the filter; choosing a domain
  // in the top bar is a history entry here; Back to another domain sets it again.
  const urlDomain = p('domain');
  if (urlDomain) setDomain(urlDomain);
  else if (domain()) setParams({ domain: domain()! }, { replace: true, scroll: false });
  createEffect(
    on(
      domain,
      (d) => {
        if ((d ?? '') !== p('domain')) go({ domain: d ?? undefined });
      },
      { defer: true },
    ),
  );
  createEffect(
    on(
      () => p('domain'),
      (d) => {
        if (d !== (domain() ?? '')) setDomain(d || null);
      },
      { defer: true },
    ),
  );

  const [text, setText] = createSignal(q());
  // Back to another search puts its words back in the box.
  createEffect(on(q, (v) => text().trim() !== v && setText(v), { defer: true }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  createEffect(
    on(
      text,
      (t) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (t.trim() !== q()) go({ q: t.trim() || undefined });
        }, 250);
      },
      { defer: true },
    ),
  );

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

  const query = () => ({
    q: q(),
    mode: mode() === 'all' ? null : (mode() as SessionMode),
    domain: domain(),
    limit: SESSIONS_LIMIT_DEFAULT,
    offset: offset(),
    from: from() || null,
    to: from() && to() && from() > to() ? null : to() || null,
    sort: sort() === 'started' && order() === 'desc' ? null : sort(),
    order: sort() === 'started' && order() === 'desc' ? null : order(),
  });
  const res = createApiResource(query, (s, signal) => getSessions(s, { signal }), { topics: ['sessions'] });
  const filtered = () => q() !== '' || mode() !== 'all' || domain() !== null || from() !== '' || to() !== '';
  const total = () => res.data()?.total ?? 0;
  const countText = () =>
    `${formatCount(total())} ${total() === 1 ? 'session' : 'sessions'}${filtered() ? (total() === 1 ? ' matches' : ' match') : ''}${from() || to() ? ` ${rangeWords(from(), to())}` : ''}`;
  const clear = () => {
    setText('');
    setDomain(null);
    go({ q: undefined, mode: undefined, domain: undefined, from: undefined, to: undefined });
  };
  const newestFirst = () => sort() === 'started' && order() === 'desc';
  const oldestFirst = () => sort() === 'started' && order() === 'asc';

  return (
    <div class="page">
      <PageHeader title="Sessions" sub="Every session engine-proxy recorded, newest first unless you sort by a column: the agent’s calls, and the flow’s lookups and why." />
      <div class="filters" role="search">
        <div class="search">
          <Icon name="search" />
          <label class="sr-only" for="sessions-search">
            Search sessions
          </label>
          <input
            id="sessions-search"
            type="search"
            placeholder="Session id, domain, agent or tool"
            data-testid="sessions-search"
            value={text()}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </div>
        <Segmented
          label="Mode"
          value={mode()}
          onChange={setMode}
          options={[
            { value: 'all', label: 'All' },
            { value: 'served', label: 'Served' },
            { value: 'shadow', label: 'Shadow' },
            { value: 'recorded', label: 'Recorded' },
          ]}
        />
        <DateRange idPrefix="sessions" from={from()} to={to()} onChange={setRange} />
        <span class="count" aria-live="polite" data-testid="sessions-count">
          <Show when={res.data()}>{countText()}</Show>
        </span>
      </div>
      <IndexingNotice indexing={res.data()?.indexing} />
      <div ref={top} class="scroll-anchor" />
      <Card label="Sessions" flush>
        <Show when={!res.error()} fallback={<ErrorState error={res.error()!} retry={res.refetch} />}>
          <Show when={res.data()} fallback={<div style={{ padding: '8px 18px' }}><Skeleton lines={10} /></div>}>
            <Show
              when={res.data()!.items.length > 0}
              fallback={
                <Show
                  when={filtered()}
                  fallback={
                    <Empty
                      icon="sessions"
                      title="No sessions recorded yet"
                      actions={
                        <Button variant="primary" icon="plus" to="/servers/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
                          Add a server
                        </Button>
                      }
                    >
                      Add a server, use your agent through it, then learn a flow. engine-proxy records each session, and it shows here as it is
                      written.
                    </Empty>
                  }
                >
                  <Empty
                    icon="search"
                    title="No sessions match"
                    actions={
                      <Button icon="x" onClick={clear}>
                        Clear the filters
                      </Button>
                    }
                  >
                    Nothing matches these filters{domain() ? ` in ${domain()}` : ''}.
                  </Empty>
                </Show>
              }
            >
              <div class={res.refreshing() ? 'refreshing' : undefined}>
                <SessionsTable items={res.data()!.items} hideDomain={domain() !== null} sort={{ key: sort(), order: order(), onSort: setSort }} />
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
          </Show>
        </Show>
      </Card>
    </div>
  );
}
