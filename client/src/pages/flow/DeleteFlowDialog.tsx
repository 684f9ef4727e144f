// Deleting a flow: a confirm dialog naming the file and the servers that would lose it; the file moves to
// the trash (Undo in the toast puts it back) and the page goes to the flows list.
import { useNavigate } from '@solidjs/router';
import { Show } from 'solid-js';
import type { FlowSummary } from '../../../../shared/flows.ts';
import { deleteFlow } from '../../api/endpoints.ts';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Button } from '../../components/ui/ui.tsx';
import { createAction } from '../../data/createAction.ts';
import { joinWords } from '../../lib/flow-words.ts';
import { deletedToast } from '../../lib/undo-delete.ts';

export function DeleteFlowDialog(props: { open: boolean; flowKey: string; summary: FlowSummary | undefined; onClose: () => void }) {
  const navigate = useNavigate();
  const remove = createAction(
    async () => {
      const path = props.summary?.path ?? '';
      const gone = props.flowKey;
      await deleteFlow(gone);
      props.onClose();
      deletedToast('Flow', path, () => navigate(`/flows/${encodeURIComponent(gone)}`));
      navigate('/flows');
    },
    { failure: 'Could not delete the flow' },
  );
  const servedBy = () => props.summary?.served_by ?? [];
  return (
    <Dialog
      open={props.open}
      title="Delete this flow?"
      onClose={props.onClose}
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button variant="danger" icon="trash" loading={remove.busy()} onClick={() => void remove.run()}>
            Move to the trash
          </Button>
        </>
      }
    >
      <p>
        <code>{props.summary?.path}</code> moves to <code>console/trash</code> in the data dir.
        <Show when={servedBy().length > 0}>
          {' '}Server {joinWords(servedBy(), '')} {servedBy().length === 1 ? 'runs' : 'run'} it: its proxy will not
          start with the flow gone.
        </Show>
      </p>
    </Dialog>
  );
}
