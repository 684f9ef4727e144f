// An engine word with a "?" beside it that opens its definition from the glossary (lib/glossary.ts): a
// disclosure button, so it works by keyboard and touch alike, and its title is the hover tooltip.
import { createSignal, createUniqueId, type JSX, Show } from 'solid-js';
import { GLOSSARY, type GlossaryWord } from '../../lib/glossary.ts';

export function Term(props: { word: GlossaryWord; children?: JSX.Element }) {
  const [open, setOpen] = createSignal(false);
  const id = `term-${createUniqueId()}`;
  return (
    <span class="term-wrap">
      <span class="term">
        {props.children ?? props.word}
        <button
          type="button"
          class="term-q"
          aria-expanded={open()}
          aria-controls={open() ? id : undefined}
          aria-label={`What is “${props.word}”?`}
          title={GLOSSARY[props.word]}
          data-testid={`term-${props.word}`}
          onClick={(e) => {
            e.preventDefault();
            e.stopPropagation();
            setOpen(!open());
          }}
        >
          ?
        </button>
      </span>
      <Show when={open()}>
        <span class="term-def" id={id} role="note" data-testid={`term-def-${props.word}`}>
          {GLOSSARY[props.word]}
        </span>
      </Show>
    </span>
  );
}
