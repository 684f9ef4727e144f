// The flow page's Raw JSON tab: the file as it is on disk, as a tree.
import { ApiError } from '../../api/client.ts';
import { getFlowRaw } from '../../api/endpoints.ts';
import { JsonTree } from '../../components/ui/JsonTree.tsx';
import { Loaded } from '../../components/ui/Loaded.tsx';
import { Card } from '../../components/ui/ui.tsx';
import { createApiResource } from '../../data/createApiResource.ts';
import { errorText } from '../../../../shared/error-text.ts';

export function RawTab(props: { flowKey: string; path: string }) {
  const raw = createApiResource(
    () => props.flowKey,
    async (key, signal) => {
      const text = await getFlowRaw(key, { signal });
      try {
        // Wrapped, so that a file holding JSON null is still data to show.
        return { value: JSON.parse(text) as unknown };
      } catch (e) {
        throw new ApiError(422, `${props.path} is not JSON: ${errorText(e)}`);
      }
    },
    { topics: ['flows'], key: (k) => k },
  );
  return (
    <Card title="Raw JSON" caption="The file as it is on disk">
      <Loaded resource={raw} skeleton={8}>
        {(json) => <JsonTree value={json().value} label={props.path} depth={1} maxHeight={640} what="Flow" />}
      </Loaded>
    </Card>
  );
}
