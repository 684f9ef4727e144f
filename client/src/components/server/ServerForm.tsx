// The add/edit server form: the server, where it runs (a command or a URL), what the proxy does (record,
// shadow, serve, with a flow), its policy, and a live preview of the proxy's command line. Checks run as the
// registry runs them; errors show after a field loses focus or after the first submit, and a submit with
// errors focuses the first invalid control and sends nothing. The state is form/createServerForm.ts; each
// card is a component of form/.
import { Show } from 'solid-js';
import { LeaveGuard } from '../form/LeaveGuard.tsx';
import { Button, Card, CodeBlock, Notice } from '../ui/ui.tsx';
import { createServerForm, type ServerFormProps } from './form/createServerForm.ts';
import { ModeCard } from './form/ModeCard.tsx';
import { NameCard } from './form/NameCard.tsx';
import { PolicyCard } from './form/PolicyCard.tsx';
import { UpstreamCard } from './form/UpstreamCard.tsx';

export default function ServerForm(props: ServerFormProps) {
  const model = createServerForm(props);
  let formEl!: HTMLFormElement;
  return (
    <form ref={formEl} class="server-form stack" novalidate onSubmit={(e) => model.submit(e, formEl)}>
      <LeaveGuard dirty={model.dirty} what="in this server" />
      <Show when={props.problem}>
        <Notice tone="danger" role="alert">
          {props.problem}
        </Notice>
      </Show>
      <NameCard model={model} />
      <UpstreamCard model={model} />
      <ModeCard model={model} />
      <PolicyCard model={model} />
      <Card title="The proxy’s command line" caption="A preview. The console writes the exact one, and each host’s configuration, when you save.">
        <div data-testid="server-preview">
          <CodeBlock language="shell" wrap what="Command" code={model.preview()} />
        </div>
      </Card>
      <div class="form-actions">
        <Button to={props.cancelTo}>Cancel</Button>
        <Button type="submit" variant="primary" loading={props.busy} testid="server-save">
          {props.isNew ? 'Add the server' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
