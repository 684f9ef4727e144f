// The sites table: after each call, what the agent did next in training (the review's `next` shares, the
// same model and rounding as the Review tab), what the flow does there at the previewed threshold, and (for a
// promoted flow) the promotion record. Rows stack into blocks on phones.
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import { siteEvidenceHref } from '../../lib/compare.ts';
import type { SitePreview } from '../../lib/flow-graph.ts';
import type { NextShare, SiteView } from '../../../../shared/flows.ts';
import { sharePercent } from '../../lib/format.ts';
import { DataTable, type Column } from '../ui/Table.tsx';
import { ProbBar } from '../ui/ui.tsx';


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
      cell: (p) => <NextShares preview={p} next={full(p.site.name)?.next ?? []} />,
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

/** What the agent did next after the site: a lookup the flow may make, `respond` (back to the model), or a
 *  call it never makes for the agent (a write, say). */
function NextShares(props: { preview: SitePreview; next: NextShare[] }) {
  const lookup = (action: string) => props.preview.site.lookups.find((l) => l.tool === action);
  return (
    <ul class="shares" data-testid="next-shares">
      <For each={props.next}>
        {(n) => (
          <li classList={{ muted: lookup(n.action) === undefined }} data-action={n.action}>
            <span class="share-bar" aria-hidden="true">
              <span
                class="share-fill"
                classList={{ 'share-acts': props.preview.acts && props.preview.choice?.tool === n.action, 'share-back': lookup(n.action) === undefined }}
                style={{ width: `${Math.round(Math.min(1, n.share) * 64)}px` }}
              />
            </span>
            <span class="num share-pct">{sharePercent(n.share)}</span> <span class="mono">{n.action}</span>{' '}
            <Show when={lookup(n.action)} fallback={<span class="muted">{n.action === 'respond' ? '(back to the model)' : '(not a lookup)'}</span>}>
              {(l) => <span class="muted">({l().count})</span>}
            </Show>
          </li>
        )}
      </For>
    </ul>
  );
}
