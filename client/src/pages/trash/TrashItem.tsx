// One deleted item: its tick, what it was, when, its files, why its last restore was refused, and Restore
// (disabled while its path is taken again).
import { Show } from 'solid-js';
import type { TrashEntry } from '../../../../shared/trash.ts';
import { Icon } from '../../components/ui/Icon.tsx';
import { Button, Notice, RelTime } from '../../components/ui/ui.tsx';
import { formatBytes, plural } from '../../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { KIND, shownAs } from './trash-words.ts';

export function TrashItem(props: {
  entry: TrashEntry;
  ticked: boolean;
  onTick: (on: boolean) => void;
  restoring: boolean;
  problem: string | null;
  onRestore: () => void;
}) {
  return (
    <li id={`trash-${props.entry.id}`} data-testid={`trash-${props.entry.id}`}>
      <input
        type="checkbox"
        class="trash-tick"
        data-testid="trash-tick"
        aria-label={`Tick ${KIND[props.entry.kind].toLowerCase()} ${shownAs(props.entry)}`}
        checked={props.ticked}
        onChange={(e) => props.onTick(e.currentTarget.checked)}
      />
      <div class="trash-main">
        <span class="badge">{KIND[props.entry.kind]}</span>
        <span class="mono trash-path">{shownAs(props.entry)}</span>
        <span class="subtle">
          deleted <RelTime ms={props.entry.deleted_unix_ms} /> · {plural(props.entry.files.length, 'file')} · {formatBytes(props.entry.files.reduce((n, f) => n + f.size_bytes, 0))}
        </span>
        <Show when={props.entry.files.length > 1}>
          <span class="subtle trash-files">with {props.entry.files.filter((f) => f.path !== props.entry.path).map((f) => f.path.split('/').pop()).join(', ')}</span>
        </Show>
        <Show when={props.entry.files.some((f) => f.taken)}>
          <span class="warn-line">
            <Icon name="warn" size={13} />{' '}
            {props.entry.kind === 'server'
              ? `A server named ${shownAs(props.entry)} is registered again: remove or rename it first, then restore.`
              : `Something is at ${props.entry.files.filter((f) => f.taken).map((f) => f.path).join(', ')} again: restoring would write over it.`}
          </span>
        </Show>
        <Show when={props.problem}>
          <Notice tone="danger" role="alert" testid="trash-problem">
            {props.problem}
          </Notice>
        </Show>
      </div>
      <Button
        icon="corner-up-left"
        loading={props.restoring}
        disabled={readOnly() || props.entry.files.some((f) => f.taken)}
        reason={readOnly() ? READ_ONLY_REASON : props.entry.kind === 'server' ? 'A server of that name is registered again' : 'Its path is taken again: move that file first'}
        onClick={props.onRestore}
        testid={`restore-${props.entry.id}`}
        label={`Restore ${shownAs(props.entry)}`}
      >
        Restore
      </Button>
    </li>
  );
}
