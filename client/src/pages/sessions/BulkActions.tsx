// What the ticked sessions can have done to them all at once: move to the trash (after a confirmation, with
// one Undo in the toast that restores them all), download as one archive, or untick.
import { createSignal, Show } from 'solid-js';
import { deleteSession, sessionsDownloadUrl } from '../../api/endpoints.ts';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Button } from '../../components/ui/ui.tsx';
import { createAction } from '../../data/createAction.ts';
import { plural } from '../../lib/format.ts';
import { deletedToast } from '../../lib/undo-delete.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';

export function BulkActions(props: {
  ticked: readonly string[];
  /** The log of a ticked session (its path, for the toast and for Undo). */
  pathOf: (key: string) => string | undefined;
  /** After the sessions went, or came back: untick and reload. */
  onChanged: () => void;
  onUntick: () => void;
}) {
  const [confirm, setConfirm] = createSignal(false);
  const n = () => props.ticked.length;
  const remove = createAction(
    async () => {
      const moved: string[] = [];
      try {
        for (const key of props.ticked) {
          await deleteSession(key);
          moved.push(props.pathOf(key) ?? key);
        }
      } finally {
        // Those that moved before a failure are in the trash too: their Undo is offered all the same.
        if (moved.length > 0) deletedToast(moved.length === 1 ? 'Session' : 'Sessions', moved, props.onChanged);
        setConfirm(false);
        props.onChanged();
      }
    },
    { failure: 'Not every ticked session was moved to the trash' },
  );
  return (
    <Show when={n() > 0}>
      <div class="bulk-bar" role="group" aria-label="The ticked sessions" data-testid="bulk-actions">
        <span class="bulk-count">{plural(n(), 'session')} ticked</span>
        <Button icon="download" href={sessionsDownloadUrl(props.ticked)} download={`sessions-${n()}.tar`} testid="bulk-download">
          Download
        </Button>
        <Button icon="trash" variant="danger" disabled={readOnly()} reason={READ_ONLY_REASON} onClick={() => setConfirm(true)} testid="bulk-trash">
          Move to the trash
        </Button>
        <Button variant="ghost" icon="x" onClick={props.onUntick}>
          Untick all
        </Button>
      </div>
      <Dialog
        open={confirm()}
        title={`Move ${plural(n(), 'session')} to the trash?`}
        description="Each log moves with its flow and confirmation logs to console/trash in the data dir. Undo in the toast, or the Trash page, puts them back."
        onClose={() => setConfirm(false)}
        footer={
          <>
            <Button onClick={() => setConfirm(false)}>Cancel</Button>
            <Button variant="danger" icon="trash" loading={remove.busy()} onClick={() => void remove.run()} testid="bulk-trash-confirm">
              Move to the trash
            </Button>
          </>
        }
      />
    </Show>
  );
}
