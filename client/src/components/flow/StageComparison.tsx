// How the committed and the staged flow did on the sessions both were scored on: per site and in all, each
// with its lookups, the share used (with its Wilson interval drawn as a bar) and its detours.
import { For, Show } from 'solid-js';
import type { ComparisonView, Counts } from '../../../../shared/stage.ts';
import { counted, intervalBar, shareText, stageDelta } from '../../lib/flow-stage.ts';

function CountsCell(props: { counts: Counts }) {
  const c = () => props.counts;
  const bar = () => (c().used_share ? intervalBar(c().used_share!, 140) : null);
  return (
    <div class="stage-cell">
      <div>
        <strong>{c().lookups}</strong> {c().lookups === 1 ? 'lookup' : 'lookups'} · <strong>{c().used}</strong> used
        <Show when={shareText(c().used_share)}>{(t) => <span class="muted"> ({t()})</span>}</Show> ·{' '}
        <strong>{c().detours}</strong> {c().detours === 1 ? 'detour' : 'detours'}
      </div>
      <Show when={bar()}>
        {(b) => (
          <span class="ibar" aria-hidden="true">
            <span class="ibar-band" style={{ left: `${b().left}px`, width: `${b().band}px` }} />
            <span class="ibar-point" style={{ left: `${b().point}px` }} />
          </span>
        )}
      </Show>
    </div>
  );
}

export function StageComparison(props: { last: ComparisonView }) {
  const l = () => props.last;
  return (
    <>
      <div class="table-wrap">
        <table class="table stacking" data-testid="stage-comparison">
          <thead>
            <tr>
              <th scope="col">After</th>
              <Show when={l().committed}>
                <th scope="col">Committed flow</th>
              </Show>
              <th scope="col">Staged flow</th>
            </tr>
          </thead>
          <tbody>
            <For each={l().sites}>
              {(s) => (
                <tr data-testid={`stage-site-${s.site}`}>
                  <td data-label="After" class="mono">{s.site}</td>
                  <Show when={l().committed}>
                    <td data-label="Committed flow"><CountsCell counts={s.committed} /></td>
                  </Show>
                  <td data-label="Staged flow"><CountsCell counts={s.staged} /></td>
                </tr>
              )}
            </For>
            <tr class="total-row" data-testid="stage-total">
              <th scope="row" data-label="After">Every site</th>
              <Show when={l().committed}>
                <td data-label="Committed flow"><CountsCell counts={l().total.committed} /></td>
              </Show>
              <td data-label="Staged flow">
                <CountsCell counts={l().total.staged} />
                <Show when={l().committed}>
                  <div class="stage-delta" data-testid="stage-delta">
                    {stageDelta(l().total.committed, l().total.staged)}
                  </div>
                </Show>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <Show when={l().total.committed.served > 0 || l().total.staged.served > 0}>
        <p class="caption">
          The proxy had already made {l().total.committed.served} of the committed flow’s lookups and {l().total.staged.served} of the
          staged flow’s, serving a flow: they count as neither used nor detours, since the agent had no reason to make them again.
        </p>
      </Show>
      <Show when={l().unanswered[0] > 0 || l().unanswered[1] > 0}>
        <p class="caption">
          Left out, as the System-One model gave no answer: {counted(l().unanswered[0], 'decision')} of the committed flow’s and{' '}
          {l().unanswered[1]} of the staged flow’s.
        </p>
      </Show>
      <p class="caption">
        A lookup counts once after each of the agent’s calls, as <code>engine promote</code> counts it: one the flow would make after
        several calls counts after each.
      </p>
    </>
  );
}
