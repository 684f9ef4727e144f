// Deleting a flow: the dialog names the file and the servers that would lose it.
import { Show } from 'solid-js';
import type { FlowSummary } from '../../../../shared/flows.ts';
import { deleteFlow } from '../../api/endpoints.ts';
import { TrashDialog } from '../../components/ui/TrashDialog.tsx';
import { flowHref } from '../../lib/flow-address.ts';
import { joinWords } from '../../lib/flow-words.ts';

export function DeleteFlowDialog(props: { open: boolean; flowKey: string; summary: FlowSummary | undefined; onClose: () => void }) {
  const servedBy = () => props.summary?.served_by ?? [];
  return (
    <TrashDialog
      open={props.open}
      onClose={props.onClose}
      title="Delete this flow?"
      what="Flow"
      itemKey={props.flowKey}
      path={props.summary?.path}
      remove={deleteFlow}
      itemHref={(key) => (props.summary ? flowHref(props.summary) : `/flows/${encodeURIComponent(key)}`)}
      listHref="/flows"
    >
      <p>
        <code>{props.summary?.path}</code> moves to <code>console/trash</code> in the data dir.
        <Show when={servedBy().length > 0}>
          {' '}Server {joinWords(servedBy(), '')} {servedBy().length === 1 ? 'runs' : 'run'} it: its proxy will not
          start with the flow gone.
        </Show>
      </p>
    </TrashDialog>
  );
}
