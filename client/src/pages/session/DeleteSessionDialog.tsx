// Deleting a session: its log and its flow and confirmation logs move to the trash (Undo in the toast puts
// them back) and the page goes to the sessions list.
import { useNavigate } from '@solidjs/router';
import { deleteSession } from '../../api/endpoints.ts';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Button } from '../../components/ui/ui.tsx';
import { createAction } from '../../data/createAction.ts';
import { deletedToast } from '../../lib/undo-delete.ts';

export function DeleteSessionDialog(props: { open: boolean; sessionKey: string; path: string | undefined; onClose: () => void }) {
  const navigate = useNavigate();
  const remove = createAction(
    async () => {
      const path = props.path ?? '';
      const gone = props.sessionKey;
      await deleteSession(gone);
      props.onClose();
      deletedToast('Session', path, () => navigate(`/sessions/${encodeURIComponent(gone)}`));
      navigate('/sessions');
    },
    { failure: 'Could not delete the session' },
  );
  return (
    <Dialog
      open={props.open}
      title="Delete this session?"
      description={
        <>
          The log and its flow and confirmation logs move to <code>console/trash</code> in the data dir. Nothing is unlinked: Undo, or
          Trash, puts them back.
        </>
      }
      onClose={props.onClose}
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button variant="danger" icon="trash" loading={remove.busy()} onClick={() => void remove.run()}>
            Move to the trash
          </Button>
        </>
      }
    />
  );
}
