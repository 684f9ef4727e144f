// Savings on the Overview: what serving a flow changed, against the recorded sessions of the same domain
// (shared/savings.ts defines each figure). A bar chart of calls and LLM turns per session, with and without
// the flow, per domain; one click turns it into tables (per domain, and per day with a served session). It
// follows the top bar's domain filter, and the period is chosen here (14, 30 or 90 days); the page loads it.
import { createSignal, For, Show } from 'solid-js';
import type { Savings, SavingsDomain } from '../../../../shared/savings.ts';
import type { ApiResource } from '../../data/createApiResource.ts';
import { barPercent, longestBar, perSession, savingsSentence, servedDays } from '../../lib/savings.ts';
import { formatCount, formatDay } from '../../lib/format.ts';
import { domain } from '../../stores/domain.ts';
import { Icon } from '../ui/Icon.tsx';
import { Loaded } from '../ui/Loaded.tsx';
import { Card, Segmented } from '../ui/ui.tsx';
import './savings.css';

export type Period = '14' | '30' | '90';

function Bars(props: { d: SavingsDomain; field: 'calls' | 'llm_turns'; longest: number; label: string }) {
  const row = (which: 'without' | 'with') => {
    const value = () => (which === 'with' ? props.d.with_flow[props.field] : props.d.without_flow[props.field]);
    return (
      <div class="savings-bar">
        <span class="savings-bar-label">{which === 'with' ? 'with the flow' : 'without'}</span>
        <span class="savings-track" aria-hidden="true">
          <span class={`savings-fill ${which}`} style={{ width: `${barPercent(value(), props.longest)}%` }} />
        </span>
        <span class="savings-value num">{perSession(value())}</span>
      </div>
    );
  };
  return (
    <div class="savings-group" role="group" aria-label={`${props.label} in ${props.d.domain}: ${perSession(props.d.without_flow[props.field])} without the flow, ${perSession(props.d.with_flow[props.field])} with it`}>
      <div class="savings-group-title">{props.label}</div>
      {row('without')}
      {row('with')}
    </div>
  );
}

export function SavingsCard(props: { savings: ApiResource<Savings>; period: Period; onPeriod: (p: Period) => void }) {
  const [table, setTable] = createSignal(false);
  const data = () => props.savings.data();
  const shown = () => (data()?.domains ?? []).filter((d) => d.served_sessions > 0 || domain() !== null);
  const headline = () => (domain() !== null ? data()?.domains[0] : data()?.totals);

  return (
    <Card
      title="Savings"
      caption={`Served sessions against recorded ones of the same domain${domain() ? `, in ${domain()}` : ''}`}
      testid="savings"
      actions={
        <>
          <Segmented
            label="Period"
            value={props.period}
            onChange={props.onPeriod}
            options={[
              { value: '14', label: '14 days' },
              { value: '30', label: '30 days' },
              { value: '90', label: '90 days' },
            ]}
          />
          <button type="button" class="btn btn-ghost btn-sm" aria-pressed={table()} data-testid="savings-toggle" onClick={() => setTable(!table())}>
            <Icon name={table() ? 'chart' : 'table'} />
            <span class="sr-only">Savings as a </span>
            {table() ? 'Chart' : 'Table'}
          </button>
        </>
      }
    >
      <Loaded resource={props.savings} skeleton={4} skeletonLabel="Loading the savings">
        {(data) => (
          <div classList={{ refreshing: props.savings.refreshing() }}>
            <p class="savings-sentence" data-testid="savings-sentence">
              {headline() ? savingsSentence(headline()!, data().days) : ''}
            </p>
            <Show when={!table()} fallback={<SavingsTables savings={data()} />}>
              <SavingsChart shown={shown()} />
            </Show>
          </div>
        )}
      </Loaded>
    </Card>
  );
}

/** Per domain, per session: calls and turns with the flow and without; then per day with a served session. */
function SavingsTables(props: { savings: Savings }) {
  return (
  <div class="stack" data-testid="savings-tables">
    <div class="table-wrap">
      <table class="table">
        <caption class="sr-only">Per domain, per session: calls and LLM turns with the flow (served) and without it (recorded)</caption>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col" class="n">Served</th>
            <th scope="col" class="n">Recorded</th>
            <th scope="col" class="n">Calls with / without</th>
            <th scope="col" class="n">Turns with / without</th>
            <th scope="col" class="n">Lookups</th>
            <th scope="col" class="n">Hand-backs</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.savings.domains}>
            {(d) => (
              <tr>
                <td class="mono">{d.domain}</td>
                <td class="n">{formatCount(d.served_sessions)}</td>
                <td class="n">{formatCount(d.recorded_sessions)}</td>
                <td class="n">
                  {perSession(d.with_flow.calls)} / {perSession(d.without_flow.calls)}
                </td>
                <td class="n">
                  {perSession(d.with_flow.llm_turns)} / {perSession(d.without_flow.llm_turns)}
                </td>
                <td class="n">{formatCount(d.lookups)}</td>
                <td class="n">{formatCount(d.hand_backs)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
    <Show when={servedDays(props.savings.daily).length > 0}>
      <div class="table-wrap">
        <table class="table">
          <caption class="sr-only">Per UTC day and domain: the served sessions and what happened in them</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Domain</th>
              <th scope="col" class="n">Served</th>
              <th scope="col" class="n">Lookups</th>
              <th scope="col" class="n">Agent calls</th>
              <th scope="col" class="n">LLM turns</th>
              <th scope="col" class="n">Hand-backs</th>
            </tr>
          </thead>
          <tbody>
            <For each={servedDays(props.savings.daily)}>
              {(d) => (
                <tr>
                  <td>{formatDay(d.date, true)}</td>
                  <td class="mono">{d.domain}</td>
                  <td class="n">{formatCount(d.served_sessions)}</td>
                  <td class="n">{formatCount(d.lookups)}</td>
                  <td class="n">{formatCount(d.calls)}</td>
                  <td class="n">{formatCount(d.llm_turns)}</td>
                  <td class="n">{formatCount(d.hand_backs)}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </Show>
  </div>
  );
}

/** Per domain: bars of calls and LLM turns per session, without the flow and with it. */
function SavingsChart(props: { shown: SavingsDomain[] }) {
  return (
  <Show when={props.shown.length > 0} fallback={<p class="muted">Serve a flow, and how its sessions compare with recorded ones shows here.</p>}>
    <div class="savings-chart" data-testid="savings-chart">
      <div class="legend">
        <span>
          <span class="swatch" style={{ background: 'var(--slate)' }} /> Without the flow (recorded)
        </span>
        <span>
          <span class="swatch" style={{ background: 'var(--accent-graphic)' }} /> With the flow (served)
        </span>
      </div>
      <For each={props.shown}>
        {(d) => (
          <section class="savings-domain" aria-label={`Per session in ${d.domain}`}>
            <h3 class="mono">{d.domain}</h3>
            <div class="savings-groups">
              <Bars d={d} field="calls" longest={longestBar(props.shown, 'calls')} label="Agent calls per session" />
              <Bars d={d} field="llm_turns" longest={longestBar(props.shown, 'llm_turns')} label="LLM turns per session" />
            </div>
          </section>
        )}
      </For>
    </div>
  </Show>
  );
}
