// A thin strip beside the timeline: the session to scale over its time, with a mark for each of the agent's
// calls, the flow's lookups, shadow decisions, hand-backs, errors and the find's matches. A click jumps
// there. It is a vertical slider for the keyboard (arrows step through the timeline's rows, Page keys a
// tenth, Home and End the ends), and a text summary stands for it for screen readers.
import { createMemo, For } from 'solid-js';
import { formatDuration, formatOffset, plural } from '../../lib/format.ts';
import { entryAt, type Entry, type Mark, type MarkKind } from '../../lib/session-find.ts';

const LABEL: Record<MarkKind, [string, string]> = {
  call: ['call', 'calls'],
  lookup: ['lookup', 'lookups'],
  shadow: ['shadow decision', 'shadow decisions'],
  back: ['hand-back', 'hand-backs'],
  error: ['error', 'errors'],
  match: ['find match', 'find matches'],
};

function describe(e: Entry | undefined): string {
  if (!e) return 'nothing';
  if (e.type === 'message') return `${e.message.role === 'user' ? 'customer' : 'agent'} message at ${formatOffset(e.t)}`;
  const failed = e.calls.filter((c) => c.call.ok === false).length;
  const tools = [...new Set(e.calls.map((c) => c.call.tool))].join(', ');
  return `turn ${e.turn.index + 1} at ${formatOffset(e.t)}${tools ? `: ${tools}` : ''}${failed ? `, ${failed} failed` : ''}`;
}

export function Minimap(props: { entries: Entry[]; marks: Mark[]; durationMs: number; top: number; matches: number; onJump: (entry: number) => void }) {
  let strip: HTMLDivElement | undefined;
  const counts = createMemo(() => {
    const out: Record<MarkKind, number> = { call: 0, lookup: 0, shadow: 0, back: 0, error: 0, match: 0 };
    for (const e of props.entries) {
      if (e.type !== 'turn') continue;
      for (const item of e.calls) {
        out[item.call.ok === false ? 'error' : 'call']++;
        for (const d of item.decisions) {
          if (d.decision.action === 'hand_back') out.back++;
          else if (d.decision.shadow || !d.lookup) out.shadow++;
          else out.lookup++;
        }
        out.lookup += item.extraLookups.length;
      }
    }
    out.match = props.matches;
    return out;
  });
  const summary = () => {
    const c = counts();
    const parts = (Object.keys(LABEL) as MarkKind[]).filter((k) => c[k] > 0).map((k) => `${c[k]} ${LABEL[k][c[k] === 1 ? 0 : 1]}`);
    return `The session over ${formatDuration(props.durationMs)}: ${parts.length ? parts.join(', ') : 'nothing shown'}. ${plural(props.entries.length, 'row')} in the timeline.`;
  };
  // The row last jumped to: keys pressed faster than the page scrolls step on from it, not from the top row.
  let target: { row: number; at: number } | null = null;
  const go = (i: number) => {
    if (props.entries.length === 0) return;
    const row = Math.max(0, Math.min(props.entries.length - 1, i));
    target = { row, at: performance.now() };
    props.onJump(row);
  };
  const base = () => (target !== null && performance.now() - target.at < 700 ? target.row : props.top);
  const onKey = (e: KeyboardEvent) => {
    const n = props.entries.length;
    const page = Math.max(1, Math.round(n / 10));
    const moves: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) go(base() + moves[e.key]!);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(n - 1);
    else return;
    e.preventDefault();
  };
  const onClick = (e: MouseEvent) => {
    if (!strip) return;
    const r = strip.getBoundingClientRect();
    go(entryAt(props.entries, props.durationMs, (e.clientY - r.top) / Math.max(1, r.height)));
  };
  const at = () => props.entries[props.top]?.t ?? 0;
  const span = () => Math.max(props.durationMs, props.entries[props.entries.length - 1]?.t ?? 0, 1);
  return (
    <div class="minimap-wrap">
      <p class="sr-only" id="minimap-summary">
        {summary()}
      </p>
      <div
        ref={strip}
        class="minimap"
        role="slider"
        tabindex="0"
        aria-label="Minimap of the session"
        aria-describedby="minimap-summary"
        aria-orientation="vertical"
        aria-valuemin={1}
        aria-valuemax={Math.max(1, props.entries.length)}
        aria-valuenow={Math.min(props.top + 1, Math.max(1, props.entries.length))}
        aria-valuetext={`Row ${props.top + 1} of ${props.entries.length}: ${describe(props.entries[props.top])}`}
        data-testid="minimap"
        onKeyDown={onKey}
        onClick={onClick}
      >
        <For each={props.marks}>{(m) => <span class={`mm-mark mm-${m.kind}`} style={{ top: `${(m.at * 100).toFixed(3)}%` }} />}</For>
        <span class="mm-here" style={{ top: `${((at() / span()) * 100).toFixed(3)}%` }} />
      </div>
    </div>
  );
}
