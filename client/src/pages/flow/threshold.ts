// The flow page's threshold, kept in the URL (?threshold=): the slider moves `live` at once, and `asked`
// (what the server is asked for) follows it 220 ms after it stops. Back/forward or a link that changes
// ?threshold= moves the slider too.
import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import { thresholdFromParam, thresholdParam } from '../../lib/flow-graph.ts';

const ASK_AFTER_MS = 220;

export interface FlowThreshold {
  live: Accessor<number>;
  asked: Accessor<number>;
  onThreshold: (t: number) => void;
}

export function createFlowThreshold(param: Accessor<string | undefined>, setParam: (value: string | undefined) => void): FlowThreshold {
  const [live, setLive] = createSignal(thresholdFromParam(param()));
  const [asked, setAsked] = createSignal(live());
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  const onThreshold = (t: number) => {
    setLive(t);
    clearTimeout(timer);
    timer = setTimeout(() => {
      setAsked(t);
      setParam(thresholdParam(t));
    }, ASK_AFTER_MS);
  };
  createEffect(
    on(
      param,
      (p) => {
        const t = thresholdFromParam(p);
        if (Math.abs(t - asked()) > 1e-9) {
          clearTimeout(timer);
          setLive(t);
          setAsked(t);
        }
      },
      { defer: true },
    ),
  );
  return { live, asked, onThreshold };
}
