// The flow page's Flow tab: what the flow does at the slider's threshold (previewed here at once), its
// graph, its sites, bindings, promotion bar and tools.
import { createMemo, Show } from 'solid-js';
import type { FlowDetail } from '../../../../shared/flows.ts';
import BindingsList from '../../components/flow/BindingsList.tsx';
import FlowGraph from '../../components/flow/FlowGraph.tsx';
import FlowToolsTable from '../../components/flow/FlowToolsTable.tsx';
import SitesTable from '../../components/flow/SitesTable.tsx';
import ThresholdSlider from '../../components/flow/ThresholdSlider.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { Term } from '../../components/ui/Term.tsx';
import { Card } from '../../components/ui/ui.tsx';
import { actingCount, previewSites } from '../../lib/flow-graph.ts';
import type { Serving } from './serving.ts';
import { ServingThreshold } from './ServingThreshold.tsx';
import { WhatIfLine } from './WhatIfLine.tsx';
import { plural } from '../../lib/flow-words.ts';

export function FlowTab(props: { detail: FlowDetail; threshold: number; onThreshold: (t: number) => void; refreshing: boolean; serving: Serving[] }) {
  const d = () => props.detail;
  const previews = createMemo(() => previewSites(d().sites, d().threshold, props.threshold));
  const counts = () => actingCount(previews());
  const promoted = () => d().promotion !== null || d().summary.promoted !== null;
  return (
    <div class="stack">
      <Card
        title="What it does at a threshold"
        caption={
          <>
            The flow takes the likeliest lookup when its share, times the chance its bound arguments are the agent’s, reaches the threshold
            the proxy serves it with (<code>--flow-threshold</code>).
          </>
        }
      >
        <ThresholdSlider
          value={props.threshold}
          onInput={props.onThreshold}
          promotedAt={d().promotion?.bar.threshold ?? null}
          servedAt={props.serving.map((s) => s.threshold)}
        />
        <ServingThreshold serving={props.serving} threshold={props.threshold} onThreshold={props.onThreshold} />
        <p class="acting" data-testid="acting" aria-live="polite">
          <Icon name="scale" /> At <strong>{props.threshold.toFixed(2)}</strong> the flow looks something up after{' '}
          <strong>{counts().acting}</strong> of its <strong>{counts().sites}</strong> {counts().sites === 1 ? 'site' : 'sites'}
          {promoted() ? ', where promoted' : ''}, and hands back after the rest.
        </p>
        <WhatIfLine flowKey={d().summary.key} threshold={props.threshold} />
        <Show
          when={d().sites.length > 0}
          fallback={<p class="muted">This flow has no sites: training saw no lookup after any call, so it always hands back.</p>}
        >
          <FlowGraph previews={previews()} tools={d().tools} />
        </Show>
      </Card>
      <Show when={d().sites.length > 0}>
        <Card title="Sites" caption="After each call, the lookups the flow may make next" flush>
          <div classList={{ refreshing: props.refreshing }}>
            <SitesTable previews={previews()} sites={d().sites} promoted={promoted()} flowKey={d().summary.key} />
          </div>
        </Card>
      </Show>
      <div classList={{ 'cards-2': d().promotion !== null, stack: d().promotion === null }}>
        <Card title={<Term word="binding">Bindings</Term>} caption="Where each lookup’s arguments come from, in training">
          <BindingsList bindings={d().bindings} />
        </Card>
        <Show when={d().promotion}>
          {(p) => (
            <Card title="Promotion" caption="The bar engine promote held each site to">
              <dl class="kv">
                <dt>Threshold</dt>
                <dd class="num">{p().bar.threshold}</dd>
                <dt>Least share used</dt>
                <dd class="num">{Math.round(p().bar.min_used * 100)}%</dd>
                <dt>Least lower bound</dt>
                <dd class="num">{p().bar.min_lower.toFixed(2)} (Wilson, 90% two-sided)</dd>
                <dt>Fewest tasks</dt>
                <dd class="num">{p().bar.min_tasks}</dd>
                <dt>Promoted</dt>
                <dd>
                  {p().sites_promoted} of the {plural(p().sites_scored, 'site')} scored
                </dd>
              </dl>
            </Card>
          )}
        </Show>
      </div>
      <Card title="Tools" caption="The domain’s tools, from the servers’ readOnlyHint: the flow calls only reads" flush>
        <FlowToolsTable tools={d().tools} />
      </Card>
    </div>
  );
}