// The flow page's Staged tab: loads the stage view, and commits or rolls back through the API; FlowStage
// shows them. A change reloads the stage view and, through onChanged, the page.
import type { FlowSummary } from '../../../../shared/flows.ts';
import { commitFlow, getStage, rollbackFlow } from '../../api/endpoints.ts';
import FlowStage from '../../components/flow/FlowStage.tsx';
import { createApiResource } from '../../data/createApiResource.ts';

export function StagedTab(props: { flowKey: string; flows: FlowSummary[] | undefined; onChanged: () => void }) {
  const stage = createApiResource(() => props.flowKey, (key, signal) => getStage(key, { signal }), { topics: ['flows'], about: (key) => key });
  return (
    <FlowStage
      flowKey={props.flowKey}
      stage={stage}
      flows={props.flows}
      commit={(note) => commitFlow(props.flowKey, note)}
      rollback={(to, note) => rollbackFlow(props.flowKey, to, note)}
      onChanged={() => {
        stage.refetch();
        props.onChanged();
      }}
    />
  );
}
