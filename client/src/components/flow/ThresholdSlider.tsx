// The threshold control: a range 0–1 in steps of 0.01 with its filled track and marks (the proxy's default,
// the bar the flow was promoted at and the thresholds servers run it at, when they differ), a number box that applies on change or Enter, and a
// reset. It reports every move at once; the page decides when to ask the server.
import { For, createSignal, createEffect } from 'solid-js';
import { FLOW_THRESHOLD_DEFAULT } from '../../../../shared/limits.ts';
import { clampThreshold } from '../../lib/flow-graph.ts';
import { onEnter } from '../ui/ui.tsx';

interface ThresholdSliderProps {
  value: number;
  onInput: (value: number) => void;
  /** The bar the flow was promoted at, marked when it is not the default. */
  promotedAt?: number | null;
  /** The thresholds servers run the flow at, marked when not the default. */
  servedAt?: readonly number[];
}

export default function ThresholdSlider(props: ThresholdSliderProps) {
  const [text, setText] = createSignal(props.value.toFixed(2));
  createEffect(() => setText(props.value.toFixed(2)));
  const marks = () => {
    const list = [{ at: FLOW_THRESHOLD_DEFAULT, label: `${FLOW_THRESHOLD_DEFAULT} default` }];
    const p = props.promotedAt;
    if (p !== null && p !== undefined && Math.abs(p - FLOW_THRESHOLD_DEFAULT) > 1e-9 && p >= 0 && p <= 1) {
      list.push({ at: p, label: `${p} promoted at` });
    }
    for (const at of new Set(props.servedAt ?? [])) {
      if (Math.abs(at - FLOW_THRESHOLD_DEFAULT) > 1e-9 && at >= 0 && at <= 1) list.push({ at, label: `${at} served at` });
    }
    return list;
  };
  const applyText = () => {
    const n = Number(text());
    if (text().trim() === '' || !Number.isFinite(n)) {
      setText(props.value.toFixed(2));
      return;
    }
    const v = clampThreshold(n);
    setText(v.toFixed(2));
    props.onInput(v);
  };
  return (
    <div class="ts">
      <label class="ts-label" for="threshold-range">Threshold</label>
      <div class="ts-track-wrap">
        <input
          id="threshold-range"
          data-testid="threshold-range"
          class="ts-range"
          type="range"
          min="0"
          max="1"
          step="0.01"
          value={props.value}
          aria-valuetext={props.value.toFixed(2)}
          style={{ '--fill': `${props.value * 100}%` }}
          onInput={(e) => props.onInput(clampThreshold(Number(e.currentTarget.value)))}
        />
        <div class="ts-marks" aria-hidden="true">
          <For each={marks()}>
            {(m) => (
              <span class="ts-mark" style={{ left: `${m.at * 100}%` }}>
                <span class="ts-tick" />
                <span class="ts-mark-label">{m.label}</span>
              </span>
            )}
          </For>
        </div>
      </div>
      <input
        class="ts-number"
        data-testid="threshold-number"
        type="number"
        min="0"
        max="1"
        step="0.01"
        inputmode="decimal"
        aria-label="Threshold, as a number"
        value={text()}
        onInput={(e) => setText(e.currentTarget.value)}
        onChange={applyText}
        onKeyDown={onEnter(applyText)}
      />
      <button
        type="button"
        class="btn btn-ghost btn-sm ts-reset"
        aria-label="Reset the threshold to 0.3"
        title="Reset the threshold to 0.3"
        disabled={Math.abs(props.value - FLOW_THRESHOLD_DEFAULT) < 1e-9}
        onClick={() => props.onInput(FLOW_THRESHOLD_DEFAULT)}
      >
        Reset
      </button>
    </div>
  );
}
