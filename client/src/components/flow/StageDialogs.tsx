// The Staged tab's confirm dialogs: commit the staged flow, or roll back to a version, each with an optional
// note (why) that the version records, and the server's refusal shown in the dialog.
import { Show } from 'solid-js';
import type { StageView } from '../../../../shared/stage.ts';
import { nextVersion } from '../../lib/flow-stage.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Button, Notice } from '../ui/ui.tsx';

/** What both dialogs share: the note being written, the action's state, and closing. */
interface ConfirmState {
  note: string;
  onNote: (note: string) => void;
  busy: boolean;
  problem: string | null;
  onClose: () => void;
  onConfirm: () => void;
}

function NoteField(props: { id: string; testid: string; placeholder: string; value: string; onInput: (v: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>
        Why <span class="optional">optional</span>
      </label>
      <textarea
        id={props.id}
        data-testid={props.testid}
        rows="3"
        placeholder={props.placeholder}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </div>
  );
}
function Problem(props: { problem: string | null }) {
  return (
    <Show when={props.problem}>
      <Notice tone="danger" role="alert">{props.problem}</Notice>
    </Show>
  );
}

export function CommitDialog(props: ConfirmState & { open: boolean; stage: StageView | undefined }) {
  return (
    <Dialog
      open={props.open}
      title="Commit the staged flow?"
      onClose={props.onClose}
      testid="commit-dialog"
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button variant="primary" testid="stage-commit-confirm" loading={props.busy} onClick={props.onConfirm}>
            Commit
          </Button>
        </>
      }
    >
      <Show when={props.stage}>
        {(s) => (
          <>
            <p>
              <code>{s().staged_path}</code> replaces <code>{s().committed_path}</code> whole, as version{' '}
              {nextVersion(s().versions, s().unrecorded)}. A proxy reads its flow when it starts, and an MCP host starts it for each
              session, so the next session is served the new flow.
              <Show when={s().unrecorded && s().committed !== null}> The committed flow as it is now is kept first, as a version of its own.</Show>
            </p>
            <NoteField id="stage-note" testid="stage-note" placeholder="reads the order after the account" value={props.note} onInput={props.onNote} />
            <Problem problem={props.problem} />
          </>
        )}
      </Show>
    </Dialog>
  );
}

export function RollbackDialog(props: ConfirmState & { to: number | null; committedPath: string | undefined }) {
  return (
    <Dialog
      open={props.to !== null}
      title={`Roll back to version ${props.to ?? ''}?`}
      onClose={props.onClose}
      testid="rollback-dialog"
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button variant="primary" testid="rollback-confirm" loading={props.busy} onClick={props.onConfirm}>
            Roll back
          </Button>
        </>
      }
    >
      <p>
        Version {props.to} becomes <code>{props.committedPath}</code> again, as a version of its own, so the rollback can be
        rolled back too. The staged flow stays as it is.
      </p>
      <NoteField id="rollback-note" testid="rollback-note" placeholder="detours after get_order_details" value={props.note} onInput={props.onNote} />
      <Problem problem={props.problem} />
    </Dialog>
  );
}
