// The flow page's Evidence tab: loads, per site, the sessions where the flow acted, for FlowEvidence.
import { getFlowSites } from '../../api/endpoints.ts';
import FlowEvidence from '../../components/flow/FlowEvidence.tsx';
import { createApiResource } from '../../data/createApiResource.ts';

export function EvidenceTab(props: { flowKey: string; site: string | null }) {
  const sites = createApiResource(() => props.flowKey, (key, signal) => getFlowSites(key, { signal }), { topics: ['sessions', 'flows'], about: (key) => key });
  return <FlowEvidence sites={sites} site={props.site} />;
}
