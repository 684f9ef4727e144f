// The flow's decisions in a session, grouped by the agent's call they followed: each against the threshold,
// with its arguments, probability and binding; a site links to the flow's evidence when the page knows it.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { FlowDecision } from '../../../../shared/sessions.ts';
import { formatProb } from '../../lib/format.ts';
import { compact } from '../../lib/json.ts';
import { decisionValue } from '../../lib/timeline.ts';
import { Cells, TableHead, type Column } from '../ui/Table.tsx';
import { Term } from '../ui/Term.tsx';
import { Empty, ProbBar } from '../ui/ui.tsx';
import { SMALL } from './cell-styles.ts';
import { decidedAt } from '../../lib/decision-threshold.ts';

export function DecisionsTable(props: { detail: { calls: { id: string; tool: string }[]; decisions: FlowDecision[] }; threshold: number; siteHref?: (site: string) => string }) {
  const calls = () => new Map(props.detail.calls.map((c) => [c.id, c]));
  const groups = () => {
    const out: { after: string; rows: FlowDecision[] }[] = [];
    for (const d of props.detail.decisions) {
      const last = out[out.length - 1];
      if (last && last.after === d.after) last.rows.push(d);
      else out.push({ after: d.after, rows: [d] });
    }
    return out;
  };
  const columns: Column<FlowDecision>[] = [
    {
      head: 'Site',
      cell: (d) => (
        <>
          <code>{d.address}</code> after{' '}
          <Show when={props.siteHref} fallback={<code>{d.site}</code>}>
            <A href={props.siteHref!(d.site)} title="This site on the flow page, with the sessions where the flow acted here">
              <code>{d.site}</code>
            </A>
          </Show>
        </>
      ),
    },
    {
      head: 'Decision',
      cell: (d) => (
        <>
          <Show when={d.action === 'lookup'} fallback={<span class="badge">hands back</span>}>
            <span class={d.shadow ? 'badge dashed' : 'badge accent'}>{d.shadow ? 'would look up' : 'looks up'}</span> <code>{d.tool ?? ''}</code>
          </Show>
          <Show when={d.reason}>
            <div class="subtle" style={{ 'font-size': '12px' }}>
              {d.reason}
            </div>
          </Show>
        </>
      ),
    },
    {
      head: 'Arguments',
      class: 'mono',
      style: SMALL,
      title: (d) => (d.arguments === null ? undefined : compact(d.arguments, 4000)),
      cell: (d) => (d.arguments === null ? '—' : compact(d.arguments, 200)),
    },
    { head: 'p', headClass: 'n', class: 'n', cell: (d) => formatProb(d.prob) },
    { head: <Term word="binding">Binding</Term>, label: 'Binding', headClass: 'n', class: 'n', cell: (d) => formatProb(d.binding) },
    {
      head: 'Against the threshold',
      cell: (d) => (
        <Show when={d.prob !== null} fallback={<span class="subtle">no lookup weighed</span>}>
          <ProbBar value={decisionValue(d)} threshold={decidedAt(d, props.threshold)} width={72} acts={d.action === 'lookup'} />
        </Show>
      ),
    },
  ];
  return (
    <Show
      when={props.detail.decisions.length > 0}
      fallback={
        <Empty icon="scale" title="No flow ran in this session">
          The proxy recorded it without a flow. Serve a flow, or run one in shadow, and its decisions show here.
        </Empty>
      }
    >
      <div class="table-wrap">
        <table class="table stacking dt">
          <TableHead columns={columns} />
          <For each={groups()}>
            {(g) => (
              <tbody>
                <tr class="group">
                  <th colspan="6" scope="rowgroup">
                    After the agent’s call <code>{calls().get(g.after)?.tool ?? '?'}</code> <code>#{g.after}</code>
                  </th>
                </tr>
                <For each={g.rows}>
                  {(d) => (
                    <tr class="decision-row">
                      <Cells columns={columns} row={d} stacking />
                    </tr>
                  )}
                </For>
              </tbody>
            )}
          </For>
        </table>
      </div>
    </Show>
  );
}
