// The flow a shadow or serving server runs: one of its domain's flows, or another path typed in.
import { For, Show } from 'solid-js';
import { Button, describedBy, Field } from '../../ui/ui.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

/** The select's value for "Another path…", which no flow key can be. */
const OTHER = '__other__';

export function FlowField(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, setForm, shown, touch, choices, otherPath, setOtherPath } = m;
  return (
    <Field
      id="server-flow"
      label="Flow"
      error={shown('flow')}
      hint={
        choices().length === 0
          ? `No flow of domain ${form.name.trim() || '(the server’s name)'} yet: learn one from this server’s recorded sessions first.`
          : `Flows of domain ${form.name.trim()}, learned from this server’s sessions.`
      }
    >
      <Show
        when={!otherPath()}
        fallback={
          <div class="inline-add">
            <CheckedInput
              model={m}
              id="server-flow"
              field="flow"
              check="flow"
              data-testid="server-flow"
              class="mono"
              placeholder="~/.engine/orders.flow.json"
            />
            <Button size="sm" onClick={() => { setOtherPath(false); setForm('flow', ''); }}>
              Choose
            </Button>
          </div>
        }
      >
        <select
          id="server-flow"
          data-testid="server-flow"
          value={form.flow}
          aria-invalid={shown('flow') ? 'true' : undefined}
          aria-describedby={describedBy('server-flow', shown('flow'), true)}
          onChange={(e) => {
            if (e.currentTarget.value === OTHER) {
              setOtherPath(true);
              setForm('flow', '');
            } else setForm('flow', e.currentTarget.value);
          }}
          onBlur={() => touch('flow')}
        >
          <option value="">Choose a flow</option>
          <For each={choices()}>{(c) => <option value={c.value}>{c.label}</option>}</For>
          <option value={OTHER}>Another path…</option>
        </select>
      </Show>
    </Field>
  );
}
