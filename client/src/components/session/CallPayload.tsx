// A call's arguments and answer, fetched when the call is opened (the outline carries none). An answer over
// the display limit comes cut: its size shows, with "Show all" (the whole answer, fetched again) and the raw
// download. Payloads come through the timeline's PayloadCache (data/payload-cache.ts).
import { createEffect, createSignal, For, Match, on, Show, Switch } from 'solid-js';
import type { CallOutline, CallPayload } from '../../../../shared/session-views.ts';
import { callResultUrl } from '../../api/endpoints.ts';
import type { PayloadCache } from '../../data/payload-cache.ts';
import { formatBytes } from '../../lib/format.ts';
import { Icon } from '../ui/Icon.tsx';
import { JsonTree } from '../ui/JsonTree.tsx';
import { Button, CopyButton, Skeleton } from '../ui/ui.tsx';
import { createAction } from '../../data/createAction.ts';

/** Answers bigger than this open as a closed tree: a page of a thousand items is many nodes. */
const BIG_TREE_BYTES = 64 * 1024;

/** Text with every case-insensitive occurrence of `q` marked. */
export function Highlight(props: { text: string; q: string }) {
  const parts = () => {
    const q = props.q.toLowerCase();
    if (q === '') return [{ text: props.text, hit: false }];
    const lower = props.text.toLowerCase();
    // toLowerCase keeps lengths for nearly all text; when it does not, the text shows unmarked.
    if (lower.length !== props.text.length) return [{ text: props.text, hit: false }];
    const out: { text: string; hit: boolean }[] = [];
    let at = 0;
    for (let i = lower.indexOf(q); i !== -1 && out.length < 2000; i = lower.indexOf(q, i + q.length)) {
      if (i > at) out.push({ text: props.text.slice(at, i), hit: false });
      out.push({ text: props.text.slice(i, i + q.length), hit: true });
      at = i + q.length;
    }
    if (at < props.text.length) out.push({ text: props.text.slice(at), hit: false });
    return out;
  };
  return <For each={parts()}>{(p) => (p.hit ? <mark>{p.text}</mark> : p.text)}</For>;
}

export function CallPayloadView(props: { call: CallOutline; sessionKey: string; cache: PayloadCache; q: string }) {
  const [all, setAll] = createSignal(false);
  const [payload, setPayload] = createSignal<CallPayload>();
  const load = createAction((n: number, whole: boolean) => props.cache.get(n, whole), { after: (p) => setPayload(p) });
  createEffect(on([() => props.call.n, all], ([n, whole]) => void load.run(n, whole)));
  const r = () => payload()?.result ?? null;
  const isJson = () => r()?.json !== null && r()?.json !== undefined;
  // A find match inside the result shows in the text, marked (a tree would hide it in a closed node).
  const [text, setText] = createSignal<boolean | null>(null);
  const asText = () => text() ?? (props.q !== '' && (r()?.text.toLowerCase().includes(props.q.toLowerCase()) ?? false));
  let pre: HTMLPreElement | undefined;
  createEffect(
    on([payload, () => props.q], () => {
      // The first mark scrolls into view inside the panel (not the page: the timeline places the call).
      const mark = pre?.querySelector('mark');
      if (pre && mark) pre.scrollTop = Math.max(0, (mark as HTMLElement).offsetTop - 40);
    }),
  );
  const label = () => (r()?.error ? 'Error result' : 'Result');
  return (
    <div class="call-body">
      <Show when={!load.error()} fallback={<p class="danger-text" role="alert">Could not read this call from the log: {load.error()}</p>}>
        <Show when={payload()} fallback={<Skeleton lines={3} label="Loading the call’s arguments and result" />}>
          <JsonTree value={payload()!.arguments} label="Arguments" depth={3} what="Arguments" />
          <Switch>
            <Match when={r() === null}>
              <p class="muted">The server never answered this call.</p>
            </Match>
            <Match when={isJson() && !asText()}>
              <JsonTree value={r()!.json} label={label()} depth={r()!.bytes > BIG_TREE_BYTES ? 1 : 2} maxHeight={420} what="Result" />
              <button type="button" class="btn btn-ghost btn-sm align-start" onClick={() => setText(true)}>
                Show the result as text
              </button>
            </Match>
            <Match when={true}>
              <div class="text-panel">
                <div class="json-head">
                  <span class="json-label">{label()}</span>
                  <Show when={isJson()}>
                    <button type="button" class="btn btn-ghost btn-sm" onClick={() => setText(false)}>
                      Show as a tree
                    </button>
                  </Show>
                  <CopyButton text={() => r()?.text ?? ''} what="Result" />
                </div>
                <pre ref={pre} tabindex="0" aria-label={label()}>
                  <Highlight text={r()!.text} q={props.q} />
                </pre>
              </div>
            </Match>
          </Switch>
          <Show when={r()?.cut}>
            <div class="payload-cut" data-testid="payload-cut">
              <Icon name="scissors" />
              <span>
                This answer is <strong>{formatBytes(r()!.bytes)}</strong>: the first {formatBytes(new TextEncoder().encode(r()!.text).length)} show here.
              </span>
              <Button size="sm" loading={load.busy()} onClick={() => setAll(true)}>
                Show all
              </Button>
              <Button size="sm" icon="download" href={callResultUrl(props.sessionKey, props.call.n)} download={`call-${props.call.id}.txt`}>
                Download
              </Button>
            </div>
          </Show>
        </Show>
      </Show>
    </div>
  );
}
