// Compare this flow with another: pick the other, swap which is the newer, and read the diff as lists or as
// the CLI's Markdown. The server diffs at the page's threshold; the old answer stays, refreshing, while a new
// one loads. By default the other flow is one of the same domain (not a version in a .history/), and a flow
// derived from this one (<name>.promoted, <name>.staged) is the newer side, so the diff reads forwards.
import { createEffect, createMemo, createSignal, For, on, Show } from 'solid-js';
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

/** Whether `a` is made from `b`: `b.promoted`, `b.staged`, or a committed version of `b` made later. */
export function derivedFrom(a: FlowSummary, b: FlowSummary): boolean {
  return a.name.startsWith(`${b.name}.`) && !a.version_of;
}

/** The default direction: this flow is the newer one, unless the other is made from it. */
export function thisIsNewerByDefault(self: FlowSummary | undefined, other: FlowSummary | null): boolean {
  if (!self || !other) return true;
  if (derivedFrom(other, self)) return false;
  if (derivedFrom(self, other)) return true;
  if (other.version_of && other.version_of.flow === self.key) return true;
  if (self.version_of && self.version_of.flow === other.key) return false;
  return true;
}

export default function FlowCompare(props: FlowCompareProps) {
  const others = createMemo(() => props.flows.filter((f) => f.key !== props.flowKey && f.error === null));
  const self = createMemo(() => props.flows.find((f) => f.key === props.flowKey));
  const other = createMemo(() => {
    const list = others();
    return (
      list.find((f) => f.key === props.compare) ??
      list.find((f) => f.domain === props.domain && !f.version_of) ??
      list.find((f) => f.domain === props.domain) ??
      list[0] ??
      null
    );
  });
  /** null: the default direction for the pair; the swap button sets it. */
  const [swapped, setSwapped] = createSignal<boolean | null>(null);
  const thisIsNewer = () => swapped() ?? thisIsNewerByDefault(self(), other());
  const setThisIsNewer = (x: boolean) => setSwapped(x);
  // Another flow picked: its own default direction.
  createEffect(on(() => props.compare, () => setSwapped(null), { defer: true }));
  /** "3 of 4 sites scored" is the CLI's wording; say why 4 when the flow has 3 sites. */
  const notes = () => {
    const lines: string[] = [];
    for (const f of [self(), other()]) {
      const p = f?.promoted;
      if (!f || !p || p.sites_scored <= f.sites) continue;
      const extra = p.sites_scored - f.sites;
      lines.push(
        `${f.key} has ${f.sites} ${f.sites === 1 ? 'site' : 'sites'}; engine promote scored ${p.sites_scored} calls: every call the flow decided after, also ${extra === 1 ? 'one' : extra} it never looks anything up after, which ${extra === 1 ? 'is' : 'are'} never promoted.`,
      );
    }
    return lines.length > 0 ? { Promotion: <>{lines.join(' ')}</> } : undefined;
  };
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
                <option value={f.key} selected={f.key === other()?.key}>
                  {f.version_of ? `${f.version_of.name} v${f.version_of.version}` : f.key} · {f.domain}
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
                <DiffLists diff={d()} notes={notes()} />
              </Show>
            </div>
          )}
        </Show>
      </Show>
    </Show>
  );
}
