// The Overview's totals: sessions (this week, or in the chosen range), tool calls, lookups served and shadow
// decisions, each with its 14-day (or range) sparkline; skeletons until the overview loads.
import { For, Show } from 'solid-js';
import type { Overview } from '../../../../shared/overview.ts';
import { rangeWords } from '../../components/ui/DateRange.tsx';
import { Skeleton, Stat } from '../../components/ui/ui.tsx';
import { formatCount } from '../../lib/format.ts';
import type { SessionsScope } from '../../lib/sessions-link.ts';
import { SESSIONS_7D_MS } from '../../../../shared/limits.ts';

export function OverviewTotals(props: {
  overview: Overview | undefined;
  from: string;
  to: string;
  /** A stat's caption: what the figures cover. */
  within: string;
  /** The list of the sessions a figure counts, within the page's domain and range. */
  link: (scope: SessionsScope) => string;
  refreshing: boolean;
}) {
  const o = () => props.overview;
  const ranged = () => props.from !== '' || props.to !== '';
  const days = () => o()?.activity.length ?? 14;
  const series = (f: (d: { sessions: number; tool_calls: number; flow_lookups: number }) => number) => (o()?.activity ?? []).map(f);
  return (
    <div class={`stats${props.refreshing ? ' refreshing' : ''}`}>
      <Show
        when={o()}
        fallback={
          <For each={[0, 1, 2, 3]}>
            {() => (
              <div class="stat">
                <Skeleton lines={2} height={16} />
              </div>
            )}
          </For>
        }
      >
        {(ov) => (
          <>
            <Show
              when={ranged()}
              fallback={
                <Stat
                  label="Sessions this week"
                  value={ov().totals.sessions_7d}
                  caption={`last 7 days · ${formatCount(ov().totals.sessions)} in all`}
                  spark={series((d) => d.sessions)}
                  sparkLabel={`Sessions per day, last ${days()} days`}
                  to={props.link({ since: Math.max(0, Date.now() - SESSIONS_7D_MS) })}
                />
              }
            >
              <Stat label="Sessions" value={ov().totals.sessions} caption={rangeWords(props.from, props.to)} spark={series((d) => d.sessions)} sparkLabel="Sessions per day in the range" to={props.link({})} />
            </Show>
            <Stat label="Tool calls" value={ov().totals.tool_calls} caption={`the agent’s own, ${props.within}`} spark={series((d) => d.tool_calls)} sparkLabel={`Tool calls per day, ${days()} days`} to={props.link({ has: ['tool_calls'] })} />
            <Stat
              label="Lookups served"
              value={ov().totals.flow_lookups}
              caption={`read ahead by flows, ${props.within}`}
              spark={series((d) => d.flow_lookups)}
              sparkLabel={`Flow lookups per day, ${days()} days`}
              to={props.link({ has: ['flow_lookups'] })}
              accent
            />
            <Stat label="Shadow decisions" value={ov().totals.shadow_decisions} caption="decided in shadow, nothing looked up" to={props.link({ has: ['shadow_decisions'] })} />
          </>
        )}
      </Show>
    </div>
  );
}
