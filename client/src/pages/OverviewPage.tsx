// The Overview: totals with 14-day sparklines, the activity chart, health, domains, the newest sessions and
// jobs, and the first-run steps while something is missing. In the main bundle (the one page not lazy).
// The top bar's domain and a UTC day range (kept in the URL as ?from=&to=) narrow the totals, the chart and
// the newest sessions; the server counts them (GET /api/overview?domain=&from=&to=).
import { driftHealthItems } from '../lib/drift-health.ts';
import { useSearchParams } from '@solidjs/router';
import type { DomainSummary } from '../../../shared/overview.ts';
import { OverviewTotals } from './overview/OverviewTotals.tsx';
import { For, Show } from 'solid-js';
import { getOverview } from '../api/endpoints.ts';
import { ActivityChart } from '../components/overview/ActivityChart.tsx';
import { DomainCard } from '../components/overview/DomainCard.tsx';
import { FirstRun } from '../components/overview/FirstRun.tsx';
import { HealthList } from '../components/overview/HealthList.tsx';
import { RecentJobs } from '../components/overview/RecentJobs.tsx';
import { SavingsSection } from './overview/SavingsSection.tsx';
import { SessionsTable } from '../components/session/SessionsTable.tsx';
import { cleanDay, DateRange, rangeWords } from '../components/ui/DateRange.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, Empty, ErrorState, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { IndexingNotice } from '../components/ui/IndexingNotice.tsx';
import { meta, READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { domain } from '../stores/domain.ts';
import { sessionsHref, type SessionsScope } from '../lib/sessions-link.ts';

export function OverviewPage() {
  useTitle(() => 'Overview');
  const [params, setParams] = useSearchParams();
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  const from = () => cleanDay(one(params.from));
  const to = () => cleanDay(one(params.to));
  const ranged = () => from() !== '' || to() !== '';
  const setRange = (f: string, t: string) => setParams({ from: f || undefined, to: t || undefined }, { scroll: false });
  const res = createApiResource(
    () => ({ domain: domain(), from: from() || null, to: to() || null }),
    (q, signal) => getOverview(q.from && q.to && q.from > q.to ? { domain: q.domain } : q, { signal }),
    { topics: ['sessions', 'flows', 'servers', 'jobs'] },
  );
  /** What the totals and the chart cover, in words. */
  const scope = () => [domain() ? `domain ${domain()}` : 'every domain', ranged() ? rangeWords(from(), to()) : ''].filter(Boolean).join(', ');
  /** A stat's caption: "every session" when nothing is chosen. */
  const within = () => (domain() || ranged() ? scope() : 'every session');
  const days = () => o()?.activity.length ?? 14;
  const o = () => res.data();
  const health = () => [...(o()?.health ?? []), ...driftHealthItems(o()?.drift ?? [], Date.now())];
  const toLook = () => health().filter((h) => h.level === 'warn' || h.level === 'error').length;
  const domains = () => (o()?.domains ?? []).filter((d) => !domain() || d.name === domain());
  const recent = () => o()?.recent_sessions ?? [];
  const firstRun = () => {
    const t = o()?.totals;
    return t !== undefined && (t.servers === 0 || t.sessions === 0 || t.flows === 0);
  };
  const link = (scope: SessionsScope) => sessionsHref({ domain: domain(), from: from(), to: to(), ...scope });

  return (
    <div class="page">
      <PageHeader
        title="Overview"
        sub={
          <>
            What engine has recorded and learned in <code>{meta()?.data_dir ?? '~/.engine'}</code>.
          </>
        }
        actions={
          <>
            <Button icon="terminal" to="/jobs/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
              New job
            </Button>
            <Button icon="plus" variant="primary" to="/servers/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
              Add a server
            </Button>
          </>
        }
      />
      <Show when={!res.error()} fallback={<Card label="Overview"><ErrorState error={res.error()!} retry={res.refetch} /></Card>}>
        <Show when={firstRun()}>
          <FirstRun servers={o()!.totals.servers} sessions={o()!.totals.sessions} flows={o()!.totals.flows} />
        </Show>
        <IndexingNotice indexing={o()?.indexing} />
        <section aria-label="Totals" class="stack" style={{ gap: '10px' }}>
          <div class="scope-row">
            <p class="scope-note" data-testid="overview-scope">
              The totals, the chart and the newest sessions cover {scope()}.
            </p>
            <DateRange idPrefix="overview" from={from()} to={to()} onChange={setRange} />
          </div>
          <OverviewTotals overview={o()} from={from()} to={to()} within={within()} link={link} refreshing={res.refreshing()} />
        </section>
        <div class={`grid-2${res.refreshing() ? ' refreshing' : ''}`}>
          <Card title="Activity" caption={`Tool calls per day, ${ranged() ? `${days()} days` : 'last 14 days'}, ${scope()}`}>
            <Show when={o()} fallback={<Skeleton lines={1} height={240} />}>
              <ActivityChart days={o()!.activity} dayHref={(day) => link({ from: day, to: day })} />
            </Show>
          </Card>
          <Card title="Health" caption={toLook() > 0 ? `${toLook()} to look at` : 'What engine doctor would check'}>
            <Show when={o()} fallback={<Skeleton lines={5} />}>
              <HealthList items={health()} />
            </Show>
          </Card>
        </div>
        <SavingsSection />
        <DomainsSection domains={o() && domains()} link={link} />
        <div class="grid-2">
          <Card title="Recent sessions" caption="The newest, with what the flow did in each" flush actions={<Button variant="ghost" size="sm" to="/sessions">All sessions →</Button>}>
            <Show when={o()} fallback={<div style={{ padding: '0 18px' }}><Skeleton lines={6} /></div>}>
              <Show
                when={recent().length > 0}
                fallback={
                  <Empty compact icon="sessions" title="No sessions yet">
                    Put a server behind engine-proxy and use your agent as usual: each session is recorded and shows here.
                  </Empty>
                }
              >
                <SessionsTable items={recent()} compact hideDomain={domain() !== null} />
              </Show>
            </Show>
          </Card>
          <Card title="Jobs" caption="The newest learn, promote, audit, stage, redact and doctor runs" flush actions={<Button variant="ghost" size="sm" to="/jobs">All jobs →</Button>}>
            <Show when={o()} fallback={<div style={{ padding: '0 18px' }}><Skeleton lines={4} /></div>}>
              <RecentJobs jobs={o()!.jobs} />
            </Show>
          </Card>
        </div>
      </Show>
    </div>
  );
}

/** The domains, as cards; undefined until the overview loads. */
function DomainsSection(props: { domains: DomainSummary[] | undefined; link: (scope: SessionsScope) => string }) {
  return (
    <section class="stack" style={{ gap: '12px' }} aria-labelledby="domains-title">
      <div class="section-head">
        <h2 id="domains-title">Domains</h2>
        <p>A domain is a server’s name: its sessions, flows and registry entry.</p>
      </div>
      <Show when={props.domains} fallback={<Skeleton lines={3} height={24} />}>
        <Show
          when={(props.domains ?? []).length > 0}
          fallback={
            <div class="card">
              <Empty icon="overview" title="No domains yet">
                A domain appears with its first recorded session. Add a server, use your agent through it, then learn a flow.
              </Empty>
            </div>
          }
        >
          <div class="domains">
            <For each={props.domains}>{(d) => <DomainCard d={d} link={(scope) => props.link({ ...scope, domain: d.name })} />}</For>
          </div>
        </Show>
      </Show>
    </section>
  );
}
