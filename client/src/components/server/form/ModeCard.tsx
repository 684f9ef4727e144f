// "What the proxy does": record, shadow or serve; with a flow, its decider and threshold; where it records.
import { For, Show } from 'solid-js';
import type { FormState, Mode } from '../../../lib/server-form.ts';
import { Card, Field, Notice } from '../../ui/ui.tsx';
import { FlowField } from './FlowField.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

const MODES: { value: Mode; title: string; text: string }[] = [
  { value: 'record', title: 'Record', text: 'Forward every message and record each session. No flow runs. Start here.' },
  { value: 'shadow', title: 'Shadow', text: 'Run a flow that decides and logs what it would look up, and looks nothing up: the sessions engine promote scores.' },
  { value: 'serve', title: 'Serve', text: 'Run a flow: after each of the agent’s calls, its lookups ride in the same result.' },
];

export function ModeCard(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, setForm, shown, input, flowWarning } = m;
  return (
    <Card title="What the proxy does">
      <div class="radio-cards mode-cards" role="radiogroup" aria-label="Mode">
        <For each={MODES}>
          {(mode) => (
            <label class={`radio-card mode-card-${mode.value}`}>
              <input type="radio" name="server-mode" value={mode.value} checked={form.mode === mode.value} onChange={() => setForm('mode', mode.value)} />
              <span>
                <strong>{mode.title}</strong>
                <span class="line">{mode.text}</span>
              </span>
            </label>
          )}
        </For>
      </div>
      <Show when={form.mode !== 'record'}>
        <div class="form-grid">
          <FlowField model={m} />
          <Show when={flowWarning()}>
            {(w) => (
              <div class="span-all">
                <Notice tone="warn" role="status" testid="flow-domain-warning">
                  {w()}
                </Notice>
              </div>
            )}
          </Show>
          <Field id="server-decider" label="Decider" optional>
            <select id="server-decider" value={form.decider} onChange={(e) => setForm('decider', e.currentTarget.value as FormState['decider'])}>
              <option value="">The flow’s default</option>
              <option value="reach">reach: counts, asks no model</option>
              <option value="habit">habit: counts, asks no model</option>
              <option value="arbiter">arbiter: asks Jev, needs a key</option>
            </select>
          </Field>
          <Field id="server-threshold" label="Threshold" optional error={shown('threshold')}>
            <CheckedInput
              model={m}
              id="server-threshold"
              field="threshold"
              check="threshold"
              hint={false}
              type="number"
              min="0"
              max="1"
              step="0.01"
              inputmode="decimal"
              placeholder="0.3"
            />
          </Field>
        </div>
      </Show>
      <Field id="server-record" label="Record to" optional>
        <input
          id="server-record"
          class="mono"
          placeholder={`${m.props.dataDirShown}/${form.mode === 'shadow' ? 'shadow' : 'logs'}/${form.name.trim() || '<name>'}`}
          value={form.recordDir}
          onInput={input('recordDir')}
        />
      </Field>
    </Card>
  );
}
