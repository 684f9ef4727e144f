// Compare this flow with another: pick the other, swap which is the newer, and read the diff as lists or as
// the CLI's Markdown. The page asks the server for the diff at its threshold and passes it in; the old
// answer stays, refreshing, while a new one loads. Which flow and which direction: lib/flow-compare.ts. Two
// flows of different domains are diffed all the same, under a warning: their sites name other servers' tools.
import { createSignal, For, Show } from 'solid-js';
import type { FlowDiffView, FlowSummary } from '../../../../shared/flows.ts';
import type { ApiResource } from '../../data/createApiResource.ts';
import type { DiffPair } from '../../lib/flow-compare.ts';
import { Icon } from '../ui/Icon.tsx';
import { Loaded } from '../ui/Loaded.tsx';
import { Markdown } from '../ui/Markdown.tsx';
import { flowLabel } from '../../lib/flow-address.ts';
import { CopyButton, Empty, Notice, Segmented } from '../ui/ui.tsx';
import DiffLists from './DiffLists.tsx';

interface FlowCompareProps {
  /** The flows it can be compared with, and the one it is. */
  others: FlowSummary[];
  other: FlowSummary | null;
  /** This flow's domain. */
  domain: string;
  /** A name per key of the pair, as the UI shows flows. */
  label: (key: string) => string;
  tolerance: number;
  onTolerance: (t: number) => void;
  pair: DiffPair | null;
  thisIsNewer: boolean;
  onSwap: () => void;
  onCompare: (key: string) => void;
  diff: ApiResource<FlowDiffView>;
  /** Sentences under a "Promotion" heading of the diff's lists. */
  notes: string[];
}

export default function FlowCompare(props: FlowCompareProps) {
  const [view, setView] = createSignal<'changes' | 'markdown'>('changes');
  const notes = () => (props.notes.length > 0 ? { Promotion: <>{props.notes.join(' ')}</> } : undefined);
  return (
    <Show
      when={props.others.length > 0}
      fallback={
        <Empty icon="flow" title="No other flow to compare with">
          Learn the domain again from newer sessions, or promote this flow, and compare the two here.
        </Empty>
      }
    >
      <div class="compare-bar">
        <div class="field compare-pick">
          <label for="compare-select">{props.thisIsNewer ? 'Compare with the older flow' : 'Compare with the newer flow'}</label>
          <select id="compare-select" data-testid="compare-select" value={props.other?.key ?? ''} onChange={(e) => props.onCompare(e.currentTarget.value)}>
            <For each={props.others}>
              {(f) => (
                <option value={f.key} selected={f.key === props.other?.key}>
                  {flowLabel(f)} · {f.domain}
                </option>
              )}
            </For>
          </select>
        </div>
        <button type="button" class="btn btn-secondary btn-md cmp-swap" title="Swap which flow is the newer" onClick={() => props.onSwap()}>
          <Icon name="chevrons-up-down" />
          <span class="sr-only">Swap which flow is the newer: </span>
          <code>{props.label(props.pair?.from ?? '')}</code> → <code>{props.label(props.pair?.to ?? '')}</code>
        </button>
        <ToleranceField value={props.tolerance} onChange={props.onTolerance} />
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
      <Show when={props.other && props.other.domain !== props.domain ? props.other : null}>
        {(o) => (
          <Notice tone="warn" role="status" testid="compare-domains">
            <code>{flowLabel(o())}</code> is a flow of <code>{o().domain}</code>, this one of <code>{props.domain}</code>: their sites and
            lookups are other servers’ tools, so the diff lists nearly everything as changed.
          </Notice>
        )}
      </Show>
      <Loaded resource={props.diff} skeleton={5}>
        {(d) => (
          <div classList={{ refreshing: props.diff.refreshing() }} aria-busy={props.diff.refreshing()}>
            <Show
              when={view() === 'changes'}
              fallback={
                <>
                  <div class="compare-copy">
                    <CopyButton text={() => d().markdown} what="Diff Markdown" label="Copy Markdown" size="sm" />
                  </div>
                  <Markdown text={d().markdown} shift={2} />
                </>
              }
            >
              <DiffLists diff={d()} notes={notes()} />
            </Show>
          </div>
        )}
      </Loaded>
    </Show>
  );
}

/** The diff's tolerance: how much a share may move before the diff names it (the API's default 0.05). */
function ToleranceField(props: { value: number; onChange: (t: number) => void }) {
  const apply = (text: string) => {
    const n = Number(text);
    if (text.trim() !== '' && Number.isFinite(n) && n >= 0) props.onChange(n);
  };
  return (
    <div class="field compare-tolerance">
      <label for="compare-tolerance">Tolerance</label>
      <input
        id="compare-tolerance"
        data-testid="compare-tolerance"
        type="number"
        min="0"
        step="0.01"
        inputmode="decimal"
        value={props.value}
        onChange={(e) => apply(e.currentTarget.value)}
      />
    </div>
  );
}
