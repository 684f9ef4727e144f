// "Where it runs": a command (stdio) or a URL (Streamable HTTP), and the fields of the one chosen.
import { Show } from 'solid-js';
import { Card, Segmented } from '../../ui/ui.tsx';
import { HttpUpstreamFields } from './HttpUpstreamFields.tsx';
import { StdioUpstreamFields } from './StdioUpstreamFields.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function UpstreamCard(props: { model: ServerFormModel }) {
  const { form, setForm } = props.model;
  return (
    <Card title="Where it runs">
      <div class="field">
        <span class="field-label" aria-hidden="true">Upstream</span>
        <Segmented
          label="Upstream"
          value={form.kind}
          options={[
            { value: 'stdio', label: 'A command (stdio)', icon: 'terminal' },
            { value: 'http', label: 'A URL (Streamable HTTP)', icon: 'compass' },
          ]}
          onChange={(k) => setForm('kind', k)}
        />
      </div>
      <Show when={form.kind === 'stdio'} fallback={<HttpUpstreamFields model={props.model} />}>
        <StdioUpstreamFields model={props.model} />
      </Show>
    </Card>
  );
}
