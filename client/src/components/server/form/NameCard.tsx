// The server form's first card: the server's name (its domain too) and a description, with what a rename keeps.
import { Show } from 'solid-js';
import { Card, Field, Notice } from '../../ui/ui.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function NameCard(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, shown } = m;
  const renamed = () => !m.props.isNew && form.name.trim() !== m.props.initial.name;
  return (
    <Card title="The server">
      <div class="form-grid">
        <Field
          id="server-name"
          label="Name"
          error={shown('name')}
          hint={
            m.props.isNew
              ? 'The name the host gives the server, which is also the domain of its sessions and flows: lowercase letters, digits, - and _.'
              : `Renaming changes the name hosts know the server by and the domain its new sessions are recorded under. Sessions and flows recorded as ${m.props.initial.name} keep that name, and each host needs its configuration pasted again.`
          }
        >
          <CheckedInput
            model={m}
            id="server-name"
            field="name"
            check="name"
            data-testid="server-name"
            class="mono"
            autocomplete="off"
            spellcheck={false}
            placeholder="orders"
          />
        </Field>
        <Show when={renamed() && !shown('name')}>
          <Notice tone="info" role="status" testid="rename-notice">
            Saving renames {m.props.initial.name} to {form.name.trim()}. The sessions and flows of {m.props.initial.name} stay under that
            domain; a flow for {form.name.trim()} is learned from its new sessions.
          </Notice>
        </Show>
        <Field id="server-description" label="Description" optional error={shown('description')}>
          <CheckedInput
            model={m}
            id="server-description"
            field="description"
            check="description"
            hint={false}
            placeholder="What it serves"
          />
        </Field>
      </div>
    </Card>
  );
}
