// Where each lookup's arguments come from, in training: per lookup tool, its calls and binding chances, then
// each argument with its sources or constant; required arguments with no source close the block.
import { For, Show } from 'solid-js';
import type { BindingView } from '../../../../shared/flows.ts';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function constantText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export default function BindingsList(props: { bindings: BindingView[] }) {
  return (
    <Show when={props.bindings.length > 0} fallback={<p class="muted">No lookup was called in training, so nothing is bound.</p>}>
      <ul class="bindings">
        <For each={props.bindings}>
          {(b) => {
            const unbound = () => b.args.filter((a) => a.required && a.sources.length === 0 && (a.constant === null || a.constant === undefined));
            return (
              <li class="binding" classList={{ 'binding-none': unbound().length > 0 }} data-testid={`binding-${b.tool}`}>
                <div class="binding-head">
                  <span class="mono strong">{b.tool}</span>
                  <span class="muted"> {b.calls} {b.calls === 1 ? 'call' : 'calls'} in training</span>
                </div>
                <Show when={b.chance}>
                  {(c) => (
                    <div class="caption">
                      chance it is the agent’s: <strong>{c()[0].toFixed(2)}</strong> not mentioned ·{' '}
                      <strong>{c()[1].toFixed(2)}</strong> mentioned
                    </div>
                  )}
                </Show>
                <ul class="args">
                  <For each={b.args}>
                    {(a) => (
                      <li>
                        <span class="chip mono">{a.name}</span>{' '}
                        <Show
                          when={a.required}
                          fallback={<span class="muted">optional, not passed</span>}
                        >
                          <Show
                            when={a.constant === null || a.constant === undefined}
                            fallback={
                              <span>
                                ← <code>{constantText(a.constant)}</code> <span class="muted">a constant the agent always passed</span>
                              </span>
                            }
                          >
                            <For each={a.sources}>
                              {(s, i) => (
                                <span class="source">
                                  {i() === 0 ? '← ' : ' or '}
                                  <code>{s.tool}</code> <code>{s.path}</code>{' '}
                                  <span class="muted">
                                    ({s.count} · {pct(s.share)})
                                  </span>
                                </span>
                              )}
                            </For>
                          </Show>
                        </Show>
                      </li>
                    )}
                  </For>
                </ul>
                <Show when={unbound().length > 0}>
                  <p class="binding-unbound">
                    <For each={unbound()}>
                      {(a, i) => (
                        <>
                          {i() > 0 ? (i() === unbound().length - 1 ? ' and ' : ', ') : ''}
                          <code>{a.name}</code>
                        </>
                      )}
                    </For>{' '}
                    {unbound().length === 1
                      ? 'has no source: only the customer knows it, so the flow never makes this lookup itself.'
                      : 'have no source: only the customer knows them, so the flow never makes this lookup itself.'}
                  </p>
                </Show>
              </li>
            );
          }}
        </For>
      </ul>
    </Show>
  );
}
