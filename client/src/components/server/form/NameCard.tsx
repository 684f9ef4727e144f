// The server form's first card: the server's name (its domain too) and a description, with what a rename keeps.
import { Show } from 'solid-js';
import { Card, describedBy, Field, Notice } from '../../ui/ui.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function NameCard(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, shown, touch, input } = m;
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
          <input
            id="server-name"
            data-testid="server-name"
            class="mono"
            autocomplete="off"
            spellcheck={false}
            placeholder="orders"
            value={form.name}
            aria-invalid={shown('name') ? 'true' : undefined}
            aria-describedby={describedBy('server-name', shown('name'), true)}
            onInput={input('name')}
            onBlur={() => touch('name')}
          />
        </Field>
        <Show when={renamed() && !shown('name')}>
          <Notice tone="info" role="status" testid="rename-notice">
            Saving renames {m.props.initial.name} to {form.name.trim()}. The sessions and flows of {m.props.initial.name} stay under that
            domain; a flow for {form.name.trim()} is learned from its new sessions.
          </Notice>
        </Show>
        <Field id="server-description" label="Description" optional error={shown('description')}>
          <input
            id="server-description"
            placeholder="What it serves"
            value={form.description}
            aria-invalid={shown('description') ? 'true' : undefined}
            aria-describedby={describedBy('server-description', shown('description'), false)}
            onInput={input('description')}
            onBlur={() => touch('description')}
          />
        </Field>
      </div>
    </Card>
  );
}
