// The sites table: after each call, what the agent did next in training, what the flow does there at the
// previewed threshold, and (for a promoted flow) the promotion record. Rows stack into blocks on phones.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import { siteEvidenceHref } from '../../lib/compare.ts';
import type { SitePreview } from '../../lib/flow-graph.ts';
import type { SiteView } from '../../../../shared/flows.ts';
import { DataTable, type Column } from '../ui/Table.tsx';
import { ProbBar } from '../ui/ui.tsx';

const pct = (x: number) => `${Math.round(x * 100)}%`;

export default function SitesTable(props: { previews: SitePreview[]; sites: SiteView[]; promoted: boolean; flowKey?: string }) {
  const full = (name: string) => props.sites.find((s) => s.name === name);
  const columns: Column<SitePreview>[] = [
    {
      head: 'After',
      cell: (p) => (
        <>
          <span class="mono strong">{p.site.tool}</span>
          <Show when={p.site.failed}>
            {' '}
            <span class="badge warn">after a failure</span>
          </Show>
          <div class="caption">
            {full(p.site.name)?.steps ?? 0} {full(p.site.name)?.steps === 1 ? 'step' : 'steps'} in training · weighed by{' '}
            {full(p.site.name)?.weighed_by === 'reach' ? 'reach' : 'the habit'}
          </div>
          <Show when={props.flowKey}>
            <A class="caption" href={siteEvidenceHref(props.flowKey!, p.site.name)} data-testid="site-evidence-link">
              Sessions where it acted here
            </A>
          </Show>
        </>
      ),
    },
    {
      head: 'What the agent did next in training',
      label: 'What the agent did next',
      cell: (p) => (
        <ul class="shares">
          <For each={p.site.lookups}>
            {(l) => (
              <li>
                <span class="share-bar" aria-hidden="true">
                  <span class="share-fill" classList={{ 'share-acts': p.acts && p.choice?.tool === l.tool }} style={{ width: `${Math.round(Math.min(1, l.share) * 64)}px` }} />
                </span>
                <span class="num">{pct(l.share)}</span> <span class="mono">{l.tool}</span>{' '}
                <span class="muted">({l.count})</span>
              </li>
            )}
          </For>
          <Show when={(full(p.site.name)?.hand_back_share ?? 0) > 0}>
            <li class="muted">
              <span class="share-bar" aria-hidden="true">
                <span class="share-fill share-back" style={{ width: `${Math.round(Math.min(1, full(p.site.name)!.hand_back_share) * 64)}px` }} />
              </span>
              {pct(full(p.site.name)!.hand_back_share)} handed back to the model
            </li>
          </Show>
        </ul>
      ),
    },
    {
      head: 'At this threshold',
      cell: (p) => (
        <>
          <ProbBar value={p.prob} threshold={p.threshold} acts={p.acts} width={88} />
          <div class="verdict" classList={{ 'verdict-acts': p.acts }}>
            <Show when={p.acts} fallback={<>hands back: {p.reason}</>}>
              looks up <code>{p.choice?.tool}</code>
            </Show>
          </div>
          <Show when={p.choice && p.choice.binding_chance !== null}>
            <div class="caption mono">
              {p.choice!.weighed_share.toFixed(2)} × {p.choice!.binding_chance!.toFixed(2)} binding
            </div>
          </Show>
          <Show when={p.site.threshold !== null}>
            <div class="caption">the site’s own threshold: {p.site.threshold}</div>
          </Show>
        </>
      ),
    },
  ];
  const promotion: Column<SitePreview> = {
    head: 'Promotion record',
    cell: (p) => (
      <Show when={full(p.site.name)?.promoted} fallback={<span class="muted">not scored</span>}>
        {(rec) => (
          <>
            <span class="badge" classList={{ accent: rec().promoted }}>
              {rec().promoted ? 'promoted' : 'not promoted'}
            </span>
            <div class="caption">
              {rec().used} of {rec().lookups} used · lower {rec().lower.toFixed(2)} · {rec().tasks} tasks
            </div>
          </>
        )}
      </Show>
    ),
  };
  return (
    <DataTable
      stacking
      class="sites-table"
      rows={props.previews}
      rowTestId={(p) => `site-${p.site.name}`}
      columns={props.promoted ? [...columns, promotion] : columns}
    />
  );
}
