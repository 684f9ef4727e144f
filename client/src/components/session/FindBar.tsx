// The session's find bar: the text to find (tool names, arguments, results, conversation), "n of m" with
// next and previous (Enter or ↓, Shift+Enter or ↑), and the filters that combine with it (a tool, failed calls only,
// the flow's decisions only). Its state is the page's URL; this component only shows it and reports edits.
import { For, Show } from 'solid-js';
import type { FindState } from '../../lib/session-find.ts';
import { Icon } from '../ui/Icon.tsx';

export function FindBar(props: {
  state: FindState;
  tools: string[];
  count: number;
  /** The current match, from 0; -1 when there is none. */
  current: number;
  finding: boolean;
  error: string | null;
  inputRef: (el: HTMLInputElement) => void;
  onChange: (patch: Partial<FindState>) => void;
  onStep: (by: number) => void;
  onClose: () => void;
}) {
  const status = () => {
    if (props.error) return `Could not search: ${props.error}`;
    if (props.state.q.trim() === '') return '';
    if (props.finding) return 'Searching…';
    return props.count === 0 ? 'No matches' : `${props.current + 1} of ${props.count}`;
  };
  return (
    <div class="findbar" role="search" aria-label="Find in this session" data-testid="findbar">
      <div class="findbar-row">
        <Icon name="search" />
        <input
          ref={props.inputRef}
          type="search"
          class="input findbar-input"
          aria-label="Find in this session: tool names, arguments, results and conversation"
          placeholder="Find in this session"
          value={props.state.q}
          onInput={(e) => props.onChange({ q: e.currentTarget.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              props.onStep(e.shiftKey ? -1 : 1);
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              props.onStep(e.key === 'ArrowDown' ? 1 : -1);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              props.onClose();
            }
          }}
        />
        <span class="findbar-count" role="status" aria-live="polite" data-testid="find-count">
          {status()}
        </span>
        <button type="button" class="btn btn-ghost btn-sm btn-square" aria-label="Previous match (Shift+Enter or ↑)" disabled={props.count === 0} onClick={() => props.onStep(-1)}>
          <Icon name="chevron-up" />
        </button>
        <button type="button" class="btn btn-ghost btn-sm btn-square" aria-label="Next match (Enter or ↓)" disabled={props.count === 0} onClick={() => props.onStep(1)}>
          <Icon name="chevron-down" />
        </button>
        <button type="button" class="btn btn-ghost btn-sm btn-square" aria-label="Close the find bar and clear it" onClick={() => props.onClose()}>
          <Icon name="x" />
        </button>
      </div>
      <div class="findbar-row findbar-filters">
        <label class="findbar-filter">
          Tool
          <select class="input" value={props.state.tool ?? ''} onChange={(e) => props.onChange({ tool: e.currentTarget.value === '' ? null : e.currentTarget.value })}>
            <option value="">Any tool</option>
            <For each={props.tools}>{(t) => <option value={t}>{t}</option>}</For>
          </select>
        </label>
        <label class="findbar-filter">
          <input type="checkbox" checked={props.state.failed} onChange={(e) => props.onChange({ failed: e.currentTarget.checked })} />
          Failed only
        </label>
        <label class="findbar-filter">
          <input type="checkbox" checked={props.state.flow} onChange={(e) => props.onChange({ flow: e.currentTarget.checked })} />
          The flow’s decisions only
        </label>
        <Show when={props.state.tool !== null || props.state.failed || props.state.flow}>
          <span class="subtle">The timeline shows only what the filters keep.</span>
        </Show>
      </div>
    </div>
  );
}
