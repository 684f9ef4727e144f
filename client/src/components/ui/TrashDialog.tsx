// "Move to the trash?" for a session or a flow: the confirm dialog, the delete, the toast with Undo (which
// opens the item again once it is back), and the way to the list it was in. A failure is a toast.
import { useNavigate } from '@solidjs/router';
import type { JSX } from 'solid-js';
import { createAction } from '../../data/createAction.ts';
import { markRemoving } from '../../data/removing.ts';
import { deletedToast } from '../../lib/undo-delete.ts';
import { Dialog } from './Dialog.tsx';
import { Button } from './ui.tsx';

/** How long after its delete an item's page ignores the events that name it (it is left at once; this covers the way out). */
const UNMARK_AFTER_MS = 2_000;

export function TrashDialog(props: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: JSX.Element;
  children?: JSX.Element;
  /** The toasts' word for it: "Flow", "Session". */
  what: string;
  itemKey: string;
  /** The file that moves, for the toast and for Undo. */
  path: string | undefined;
  remove: (key: string) => Promise<unknown>;
  /** Where the item's page is, and the list it goes back to. */
  itemHref: (key: string) => string;
  listHref: string;
}) {
  const navigate = useNavigate();
  const remove = createAction(
    async () => {
      const path = props.path ?? '';
      const gone = props.itemKey;
      // Its page is left as soon as the delete is done: meanwhile the delete's own event does not reload it.
      const unmark = markRemoving(gone);
      try {
        await props.remove(gone);
      } catch (err) {
        unmark();
        throw err;
      }
      setTimeout(unmark, UNMARK_AFTER_MS);
      props.onClose();
      deletedToast(props.what, [path], () => {
        unmark();
        navigate(props.itemHref(gone));
      });
      navigate(props.listHref);
    },
    { failure: () => `Could not delete the ${props.what.toLowerCase()}` },
  );
  return (
    <Dialog
      open={props.open}
      title={props.title}
      description={props.description}
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
      {props.children}
    </Dialog>
  );
}
