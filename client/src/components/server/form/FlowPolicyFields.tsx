// The policy that only matters when a flow runs: its surprise gate, and the tools it may call.
import { Show } from 'solid-js';
import type { FormState } from '../../../lib/server-form.ts';
import { describedBy, Field } from '../../ui/ui.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function FlowPolicyFields(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, setForm, shown, touch, input } = m;
  return (
    <>
      <Field
        id="server-surprise"
        label="Surprise gate"
        optional
        error={shown('surprise')}
        hint="The flow hands back to the agent for the rest of a session once the agent’s steps surprise it: on average more than this many nats (−ln of the habit’s probability) over the flow’s window. By default the flow’s own gate applies."
      >
        <div class="inline-add">
          <select
            id="server-surprise"
            value={form.surprise}
            aria-describedby={describedBy('server-surprise', shown('surprise'), true)}
            onChange={(e) => setForm('surprise', e.currentTarget.value as FormState['surprise'])}
          >
            <option value="">The flow’s own gate</option>
            <option value="off">Off: never hand back on surprise</option>
            <option value="threshold">At a threshold, in nats</option>
          </select>
          <Show when={form.surprise === 'threshold'}>
            <input
              id="server-surprise-nats"
              aria-label="Surprise threshold, in nats"
              type="number"
              min="0"
              step="0.1"
              inputmode="decimal"
              placeholder="2.5"
              value={form.surpriseNats}
              aria-invalid={shown('surprise') ? 'true' : undefined}
              onInput={input('surpriseNats')}
              onBlur={() => touch('surprise')}
            />
          </Show>
        </div>
      </Field>
      <Field
        id="server-flow-tools"
        label="Tools the flow may call"
        optional
        error={shown('flowTools')}
        hint="The only tools the flow may look up on its own (--flow-tools), separated by commas or spaces. Empty: every lookup the flow knows."
      >
        <CheckedInput
          model={m}
          id="server-flow-tools"
          field="flowTools"
          check="flowTools"
          class="mono"
          autocomplete="off"
          spellcheck={false}
          placeholder="get_order_details, get_user_details"
        />
      </Field>
    </>
  );
}
