// The sessions list: search, mode and the top bar's domain filter, all kept in the URL query (replace, so
// Back leaves the page), 50 a page, refreshed as sessions are written.
import { useSearchParams } from '@solidjs/router';
import { createEffect, createSignal, on, onCleanup, Show } from 'solid-js';
import type { SessionMode } from '../../../shared/sessions.ts';
import { SESSIONS_LIMIT_DEFAULT } from '../../../shared/limits.ts';
import { getSessions } from '../api/endpoints.ts';
import { SessionsTable } from '../components/session/SessionsTable.tsx';
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

export default function SessionsPage() {
  useTitle(() => 'Sessions');
  const [params, setParams] = useSearchParams();
  // Opening /sessions?domain=x sets the global domain filter.
  const urlDomain = one(params.domain);
  if (urlDomain) setDomain(urlDomain);

  const [text, setText] = createSignal(one(params.q));
  const [q, setQ] = createSignal(one(params.q).trim());
  const modeParam = one(params.mode);
  const [mode, setMode] = createSignal<ModeChoice>(MODES.includes(modeParam as ModeChoice) ? (modeParam as ModeChoice) : 'all');
  const [offset, setOffset] = createSignal(Math.max(0, Number(one(params.offset)) || 0));

  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  createEffect(
    on(
      text,
      (t) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (t.trim() !== q()) {
            setQ(t.trim());
            setOffset(0);
          }
        }, 250);
      },
      { defer: true },
    ),
  );
  createEffect(on([mode, domain], () => setOffset(0), { defer: true }));
  createEffect(() => {
    setParams(
      { q: q() || undefined, mode: mode() === 'all' ? undefined : mode(), domain: domain() ?? undefined, offset: offset() || undefined },
      { replace: true, scroll: false },
    );
  });

  const query = () => ({ q: q(), mode: mode() === 'all' ? null : (mode() as SessionMode), domain: domain(), limit: SESSIONS_LIMIT_DEFAULT, offset: offset() });
  const res = createApiResource(query, (s, signal) => getSessions(s, { signal }), { topics: ['sessions'] });
  const filtered = () => q() !== '' || mode() !== 'all' || domain() !== null;
  const total = () => res.data()?.total ?? 0;
  const countText = () => `${formatCount(total())} ${total() === 1 ? 'session' : 'sessions'}${filtered() ? (total() === 1 ? ' matches' : ' match') : ''}`;
  const clear = () => {
    setText('');
    setQ('');
    setMode('all');
    setDomain(null);
  };

  return (
    <div class="page">
      <PageHeader title="Sessions" sub="Every session engine-proxy recorded, newest first: the agent’s calls, and the flow’s lookups and why." />
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
        <span class="count" aria-live="polite" data-testid="sessions-count">
          <Show when={res.data()}>{countText()}</Show>
        </span>
      </div>
      <IndexingNotice indexing={res.data()?.indexing} />
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
                <SessionsTable items={res.data()!.items} hideDomain={domain() !== null} />
                <Show when={total() > SESSIONS_LIMIT_DEFAULT}>
                  <Pagination offset={offset()} limit={SESSIONS_LIMIT_DEFAULT} total={total()} noun="sessions" onChange={setOffset} />
                </Show>
              </div>
            </Show>
          </Show>
        </Show>
      </Card>
    </div>
  );
}
