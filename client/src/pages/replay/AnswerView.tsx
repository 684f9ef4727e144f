// One answer of a replayed call as indented JSON, the differing paths highlighted; a text whose JSON inside
// differs is shown parsed, its inner pointers after `#`.
import { For, Show, type JSX } from 'solid-js';
import { escapeToken, type Marks } from '../../lib/replay-marks.ts';

function parsedText(x: string): unknown {
  try {
    return JSON.parse(x);
  } catch {
    return undefined;
  }
}

function Node(props: { value: unknown; path: string; marks: Marks; label?: JSX.Element }): JSX.Element {
  const marked = () => props.marks.at.has(props.path);
  const v = props.value;
  const wrap = (body: JSX.Element) => (
    <div class="replay-node" classList={{ 'replay-diff': marked() }} data-path={marked() ? props.path : undefined}>
      {props.label}
      {body}
    </div>
  );
  if (typeof v === 'string' && props.marks.inText.has(props.path)) {
    const inner = parsedText(v);
    if (inner !== undefined) return wrap(<Node value={inner} path={`${props.path}#`} marks={props.marks} label={<span class="replay-key">(JSON text) </span>} />);
  }
  if (Array.isArray(v)) {
    return wrap(
      <div class="replay-children">
        <For each={v}>{(x, i) => <Node value={x} path={`${props.path}/${i()}`} marks={props.marks} label={<span class="replay-key">{i()}: </span>} />}</For>
      </div>,
    );
  }
  if (typeof v === 'object' && v !== null) {
    return wrap(
      <div class="replay-children">
        <For each={Object.entries(v)}>
          {([k, x]) => <Node value={x} path={`${props.path}/${escapeToken(k)}`} marks={props.marks} label={<span class="replay-key">{k}: </span>} />}
        </For>
      </div>,
    );
  }
  return wrap(<span class="replay-leaf">{JSON.stringify(v)}</span>);
}

export default function AnswerView(props: { title: string; value: unknown; marks: Marks; testid: string }) {
  return (
    <div class="replay-answer" data-testid={props.testid}>
      <h4>{props.title}</h4>
      <Show when={props.value !== null && props.value !== undefined} fallback={<p class="muted">No answer.</p>}>
        <Node value={props.value} path="" marks={props.marks} />
      </Show>
    </div>
  );
}
