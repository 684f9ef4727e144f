// One replayed call: its tool, verdict, where it was recorded (a link to its line in the session), its differences, and
// on demand its two answers side by side with the differing paths highlighted.
import { A } from '@solidjs/router';
import { createSignal, For, Show } from 'solid-js';
import type { ReplayCall } from '../../../../shared/replay.ts';
import { marksOf } from '../../lib/replay-marks.ts';
import { Button } from '../../components/ui/ui.tsx';
import AnswerView from './AnswerView.tsx';

const VERDICT_TEXT: Record<ReplayCall['verdict'], string> = {
  same: 'same',
  differs: 'differs',
  error: 'error',
  skipped_write: 'skipped (write)',
  gone: 'gone',
};

/** The part the diffs' pointers are relative to: the answer's `result`, or the answer itself. */
const resultOf = (answer: unknown): unknown =>
  typeof answer === 'object' && answer !== null && 'result' in answer ? answer.result : answer;

const shown = (x: unknown) => (x === undefined ? '(absent)' : JSON.stringify(x));

export default function CallRow(props: { call: ReplayCall }) {
  const [open, setOpen] = createSignal(false);
  const c = () => props.call;
  return (
    <li class="replay-call" data-testid="replay-call" data-verdict={c().verdict}>
      <div class="replay-call-head">
        <span class={`replay-verdict replay-${c().verdict}`}>{VERDICT_TEXT[c().verdict]}</span>
        <code>{c().tool}</code>
        <A href={`/sessions/${encodeURIComponent(c().session)}?line=${c().line}`} data-testid="replay-call-session">
          {c().session}, line {c().line}
        </A>
        <Show when={c().recorded !== null || c().live !== null}>
          <Button size="sm" variant="ghost" testid="replay-call-toggle" onClick={() => setOpen(!open())}>
            {open() ? 'Hide answers' : 'Show answers'}
          </Button>
        </Show>
      </div>
      <Show when={c().error}>{(e) => <p class="muted">{e()}</p>}</Show>
      <Show when={c().diffs.length > 0}>
        <ul class="replay-diffs" data-testid="replay-diffs">
          <For each={c().diffs}>
            {(d) => (
              <li>
                <code data-testid="replay-diff-path">{d.path === '' ? '(the whole answer)' : d.path}</code>: {shown(d.recorded)} → {shown(d.live)}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={open()}>
        <div class="replay-sides">
          <AnswerView title="Recorded" value={resultOf(c().recorded)} marks={marksOf(c())} testid="replay-recorded" />
          <AnswerView title="Live" value={resultOf(c().live)} marks={marksOf(c())} testid="replay-live" />
        </div>
      </Show>
    </li>
  );
}
