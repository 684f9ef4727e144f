// A job's parameters as it was asked for them: each field but its kind, with "default" for a field left unset.
import { For, Show } from 'solid-js';

function paramText(v: unknown): string {
  if (v === null || v === undefined) return 'default';
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : 'none';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

export function ParamList(props: { params: unknown }) {
  const entries = () =>
    props.params !== null && typeof props.params === 'object' && !Array.isArray(props.params)
      ? Object.entries(props.params as Record<string, unknown>).filter(([k]) => k !== 'kind')
      : [];
  return (
    <Show when={entries().length > 0} fallback={<p class="muted">None.</p>}>
      <dl class="kv">
        <For each={entries()}>
          {([k, v]) => (
            <>
              <dt class="mono">{k}</dt>
              <dd class={v === null ? 'subtle' : 'mono'}>{paramText(v)}</dd>
            </>
          )}
        </For>
      </dl>
    </Show>
  );
}
