// While the console reads the data directory after it started (newest logs first), the pages that count
// sessions say how far it is, so a partial list or total is never taken for the whole.
import { Show } from 'solid-js';
import type { Indexing } from '../../../../shared/sessions.ts';
import { formatCount } from '../../lib/format.ts';

export function IndexingNotice(props: { indexing: Indexing | undefined }) {
  return (
    <Show when={props.indexing}>
      {(i) => (
        <div class="indexing-notice" role="status" data-testid="indexing">
          <span>
            Reading the data directory: indexed {formatCount(i().indexed)} of {formatCount(i().total)} sessions, newest first.
            Counts and lists grow as it goes.
          </span>
          <progress max={Math.max(1, i().total)} value={i().indexed} aria-label="Sessions indexed" />
        </div>
      )}
    </Show>
  );
}
