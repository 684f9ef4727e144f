// The flow page's Compare tab: picks the other flow and the direction (lib/flow-compare.ts), asks the server
// for the diff at the page's threshold, and hands both to FlowCompare. A swap holds until another flow is
// picked, which starts from its own default direction. The tolerance starts at the API's default.
import { createEffect, createMemo, createSignal, on } from 'solid-js';
import type { FlowSummary } from '../../../../shared/flows.ts';
import { DIFF_TOLERANCE_DEFAULT } from '../../../../shared/limits.ts';
import { getFlowDiff } from '../../api/endpoints.ts';
import FlowCompare from '../../components/flow/FlowCompare.tsx';
import { createApiResource } from '../../data/createApiResource.ts';
import { flowLabel } from '../../lib/flow-address.ts';
import { comparableFlows, diffPair, otherFlow, promotionNotes, thisIsNewerByDefault } from '../../lib/flow-compare.ts';

export function CompareTab(props: {
  flowKey: string;
  domain: string;
  flows: FlowSummary[];
  threshold: number;
  compare: string | null;
  onCompare: (key: string) => void;
}) {
  const others = createMemo(() => comparableFlows(props.flows, props.flowKey));
  const self = createMemo(() => props.flows.find((f) => f.key === props.flowKey));
  const other = createMemo(() => otherFlow(others(), props.domain, props.compare));
  /** null: the default direction for the pair; the swap button sets it. */
  const [swapped, setSwapped] = createSignal<boolean | null>(null);
  const thisIsNewer = () => swapped() ?? thisIsNewerByDefault(self(), other());
  createEffect(on(() => props.compare, () => setSwapped(null), { defer: true }));
  const [tolerance, setTolerance] = createSignal(DIFF_TOLERANCE_DEFAULT);
  const pair = () => diffPair(other(), props.flowKey, thisIsNewer(), { threshold: props.threshold, tolerance: tolerance() });
  const diff = createApiResource(pair, (p, signal) => getFlowDiff(p.from, p.to, p.threshold, p.tolerance, { signal }), { topics: ['flows'], about: () => props.flowKey });
  const label = (key: string) => {
    const f = props.flows.find((x) => x.key === key);
    return f ? flowLabel(f) : key;
  };
  return (
    <FlowCompare
      others={others()}
      other={other()}
      domain={props.domain}
      label={label}
      tolerance={tolerance()}
      onTolerance={setTolerance}
      pair={pair()}
      thisIsNewer={thisIsNewer()}
      onSwap={() => setSwapped(!thisIsNewer())}
      onCompare={props.onCompare}
      diff={diff}
      notes={promotionNotes([self(), other()])}
    />
  );
}
