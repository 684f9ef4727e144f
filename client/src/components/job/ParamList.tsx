// A job's parameters as it was asked for them: each field but its kind; a value the request left to its
// default says so, and a field left empty (no value, or a path the form leaves blank) is not listed.
import { For, Show } from 'solid-js';

/** Fields the new-job form leaves blank unless the person fills them: when defaulted, nothing was asked. */
const BLANK_UNLESS_GIVEN = new Set(['out', 'oracle_cache', 'decider', 'half_life', 'hash_fields']);

function paramText(v: unknown): string {
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : 'none';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

export function ParamList(props: { params: unknown; defaults: readonly string[] }) {
  const entries = () =>
    props.params !== null && typeof props.params === 'object' && !Array.isArray(props.params)
      ? Object.entries(props.params as Record<string, unknown>).filter(
          ([k, v]) => k !== 'kind' && v !== null && v !== undefined && !(BLANK_UNLESS_GIVEN.has(k) && props.defaults.includes(k)),
        )
      : [];
  return (
    <Show when={entries().length > 0} fallback={<p class="muted">None.</p>}>
      <dl class="kv" data-testid="job-params">
        <For each={entries()}>
          {([k, v]) => (
            <>
              <dt class="mono">{k}</dt>
              <dd class="mono">
                {paramText(v)}
                <Show when={props.defaults.includes(k)}>
                  {' '}
                  <span class="badge subtle">default</span>
                </Show>
              </dd>
            </>
          )}
        </For>
      </dl>
    </Show>
  );
}
