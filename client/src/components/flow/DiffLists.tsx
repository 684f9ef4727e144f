// A flow diff as lists: what needs review first, then every change under its heading. Entries are the
// CLI's sentences, with `backticked` words as code.
import { For, type JSX, Show } from 'solid-js';
import type { FlowDiffView } from '../../../../shared/flows.ts';
import { RichText } from '../ui/ui.tsx';

export default function DiffLists(props: { diff: FlowDiffView; headingLevel?: 3 | 4; notes?: Record<string, JSX.Element> }) {
  const H = (p: { children: string }) => (props.headingLevel === 4 ? <h4 class="diff-h">{p.children}</h4> : <h3 class="diff-h">{p.children}</h3>);
  const sectioned = () => props.diff.sections.filter((s) => s.changes.length > 0);
  return (
    <div class="diff">
      <Show
        when={props.diff.review.length > 0}
        fallback={
          <div class="diff-ok">
            <H>Nothing needs review</H>
            <p class="muted">
              The flow calls no tool, makes no lookup, binds no argument and asks no model or question it did not before.
            </p>
          </div>
        }
      >
        <H>{`Needs review: ${props.diff.review.length}`}</H>
        <ul class="diff-review" data-testid="diff-review">
          <For each={props.diff.review}>{(r) => <li><RichText text={r} /></li>}</For>
        </ul>
      </Show>
      <H>{`Every change: ${props.diff.changes.length}`}</H>
      <Show
        when={sectioned().length > 0}
        fallback={
          <Show when={props.diff.changes.length > 0} fallback={<p class="muted">None.</p>}>
            <ul class="diff-list">
              <For each={props.diff.changes}>{(c) => <li><RichText text={c} /></li>}</For>
            </ul>
          </Show>
        }
      >
        <For each={sectioned()}>
          {(s) => (
            <section class="diff-section">
              <h4>{s.title}</h4>
              <ul class="diff-list">
                <For each={s.changes}>{(c) => <li><RichText text={c} /></li>}</For>
              </ul>
              <Show when={props.notes?.[s.title]}>
                <p class="caption diff-note" data-testid={`diff-note-${s.title}`}>
                  {props.notes![s.title]}
                </p>
              </Show>
            </section>
          )}
        </For>
      </Show>
    </div>
  );
}
