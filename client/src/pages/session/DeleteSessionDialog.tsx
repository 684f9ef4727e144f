// Deleting a session: its log and its flow and confirmation logs move to the trash together.
import { deleteSession } from '../../api/endpoints.ts';
import { TrashDialog } from '../../components/ui/TrashDialog.tsx';

export function DeleteSessionDialog(props: { open: boolean; sessionKey: string; path: string | undefined; onClose: () => void }) {
  return (
    <TrashDialog
      open={props.open}
      onClose={props.onClose}
      title="Delete this session?"
      description={
        <>
          The log and its flow and confirmation logs move to <code>console/trash</code> in the data dir. Nothing is unlinked: Undo, or
          Trash, puts them back.
        </>
      }
      what="Session"
      itemKey={props.sessionKey}
      path={props.path}
      remove={deleteSession}
      itemHref={(key) => `/sessions/${encodeURIComponent(key)}`}
      listHref="/sessions"
    />
  );
}
