// The bars above the session timeline: what to show, the legend, Find, and Expand or Collapse all.
import type { ShowMode } from '../../lib/session-find.ts';
import { Icon } from '../ui/Icon.tsx';
import { Segmented } from '../ui/ui.tsx';

/** What to show, the legend, Find, and Expand or Collapse all. */
export function TimelineBars(props: {
  show: ShowMode;
  onShow: (m: ShowMode) => void;
  failed: number;
  barOpen: boolean;
  onFind: () => void;
  allOpen: boolean;
  onToggleAll: () => void;
}) {
  return (
    <>
    <div class="timeline-bar">
      <Segmented
        label="Show"
        value={props.show}
        onChange={props.onShow}
        options={[
          { value: 'all', label: 'Everything' },
          { value: 'calls', label: 'Calls' },
          { value: 'conversation', label: 'Conversation' },
          { value: 'failed', label: `Failed or unanswered (${props.failed})` },
        ]}
      />
    </div>
    <div class="timeline-bar">
      <div class="tl-legend">
        <span>
          <span class="box" /> The agent’s call
        </span>
        <span>
          <span class="box made" /> Read ahead by engine
        </span>
        <span>
          <span class="box shadow" /> Would read ahead (shadow)
        </span>
        <span>
          <span class="box back" /> Handed back
        </span>
      </div>
      <div class="card-actions">
        <button
          type="button"
          class="btn btn-sm"
          aria-expanded={props.barOpen}
          aria-label="Find in this session"
          title="Find in this session (Ctrl F or ⌘ F)"
          onClick={() => props.onFind()}
        >
          <Icon name="search" />
          <span class="find-label">Find</span>
        </button>
        <button type="button" class="btn btn-sm" onClick={() => props.onToggleAll()}>
          <Icon name="chevrons-up-down" />
          {props.allOpen ? 'Collapse all' : 'Expand all'}
        </button>
      </div>
    </div>
    </>
  );
}
