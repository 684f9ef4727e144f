// Compare this flow with another: pick the other, swap which is the newer, and read the diff as lists or as
// the CLI's Markdown. The server diffs at the page's threshold; the old answer stays, refreshing, while a new
// one loads.
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { FlowSummary } from '../../../../shared/flows.ts';
import { getFlowDiff } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { Icon } from '../ui/Icon.tsx';
import { Markdown } from '../ui/Markdown.tsx';
import { Empty, ErrorState, Segmented, Skeleton } from '../ui/ui.tsx';
import DiffLists from './DiffLists.tsx';

export interface FlowCompareProps {
  flowKey: string;
  domain: string;
  flows: FlowSummary[];
  threshold: number;
  compare: string | null;
  onCompare: (key: string) => void;
}

export default function FlowCompare(props: FlowCompareProps) {
  const others = createMemo(() => props.flows.filter((f) => f.key !== props.flowKey && f.error === null));
  const other = createMemo(() => {
    const list = others();
    return (
      list.find((f) => f.key === props.compare) ?? list.find((f) => f.domain === props.domain) ?? list[0] ?? null
    );
  });
  /** By default this flow is the newer one (`to`). */
  const [thisIsNewer, setThisIsNewer] = createSignal(true);
  const [view, setView] = createSignal<'changes' | 'markdown'>('changes');
  const pair = () => {
    const o = other();
    if (o === null) return null;
    return thisIsNewer() ? { from: o.key, to: props.flowKey, threshold: props.threshold } : { from: props.flowKey, to: o.key, threshold: props.threshold };
  };
  const diff = createApiResource(pair, (p, signal) => getFlowDiff(p.from, p.to, p.threshold, { signal }), { topics: ['flows'] });

  return (
    <Show
      when={others().length > 0}
      fallback={
        <Empty icon="flow" title="No other flow to compare with">
          Learn the domain again from newer sessions, or promote this flow, and compare the two here.
        </Empty>
      }
    >
      <div class="compare-bar">
        <div class="field compare-pick">
          <label for="compare-select">{thisIsNewer() ? 'Compare with the older flow' : 'Compare with the newer flow'}</label>
          <select
            id="compare-select"
            data-testid="compare-select"
            value={other()?.key ?? ''}
            onChange={(e) => props.onCompare(e.currentTarget.value)}
          >
            <For each={others()}>
              {(f) => (
                <option value={f.key}>
                  {f.key} · {f.domain}
                </option>
              )}
            </For>
          </select>
        </div>
        <button
          type="button"
          class="btn btn-secondary btn-md cmp-swap"
          title="Swap which flow is the newer"
          onClick={() => setThisIsNewer(!thisIsNewer())}
        >
          <Icon name="chevrons-up-down" />
          <span class="sr-only">Swap which flow is the newer: </span>
          <code>{pair()?.from}</code> → <code>{pair()?.to}</code>
        </button>
        <Segmented
          label="Show the diff as"
          value={view()}
          options={[
            { value: 'changes', label: 'Changes' },
            { value: 'markdown', label: 'As Markdown' },
          ]}
          onChange={setView}
        />
      </div>
      <Show when={!diff.error()} fallback={<ErrorState error={diff.error()!} retry={diff.refetch} />}>
        <Show when={!diff.loading() && diff.data()} fallback={<Skeleton lines={5} />}>
          {(d) => (
            <div classList={{ refreshing: diff.refreshing() }} aria-busy={diff.refreshing()}>
              <Show when={view() === 'changes'} fallback={<Markdown text={d().markdown} shift={2} />}>
                <DiffLists diff={d()} />
              </Show>
            </div>
          )}
        </Show>
      </Show>
    </Show>
  );
}
