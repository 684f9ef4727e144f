// "The proxy's policy": what the proxy does besides recording and running the flow; each is off unless set.
import { Show } from 'solid-js';
import { GUARDED_DOMAINS } from '../../../../../shared/server-entry-rules.ts';
import { Card, Field } from '../../ui/ui.tsx';
import { FlowPolicyFields } from './FlowPolicyFields.tsx';
import { JudgeFields } from './JudgeFields.tsx';
import { ListenFields } from './ListenFields.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function PolicyCard(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, setForm, shown, touch } = m;
  return (
    <Card title="The proxy’s policy" caption="What the proxy does besides recording and running the flow. Each is off unless you set it.">
      <div class="form-grid">
        <Show when={form.mode !== 'record'}>
          <FlowPolicyFields model={m} />
        </Show>
        <Field
          id="server-retain"
          label="Keep sessions for"
          optional
          error={shown('retainDays')}
          hint="When the proxy starts, it deletes what is older than this many days: the sessions it recorded, the logs beside them, and its cached answers. Empty: keep everything."
        >
          <CheckedInput
            model={m}
            id="server-retain"
            field="retainDays"
            check="retainDays"
            type="number"
            min="1"
            step="1"
            inputmode="numeric"
            placeholder="days"
          />
        </Field>
      </div>
      <div class={`field${shown('guards') ? ' invalid' : ''}`}>
        <label class="check">
          <input
            type="checkbox"
            id="server-guards"
            checked={form.guards}
            aria-invalid={shown('guards') ? 'true' : undefined}
            aria-describedby="server-guards-hint"
            onChange={(e) => {
              setForm('guards', e.currentTarget.checked);
              touch('guards');
            }}
          />
          Policy guards
        </label>
        <Show when={shown('guards')}>
          <p class="field-error">{shown('guards')}</p>
        </Show>
        <p class="field-hint" id="server-guards-hint">
          Check each of the agent’s calls against the domain’s policy, and refuse the ones that break it (--guards). Only{' '}
          {GUARDED_DOMAINS.join(' and ')} have guards.
        </p>
      </div>
      <JudgeFields model={m} />
      <div class="field">
        <label class="check">
          <input type="checkbox" id="server-commit" checked={form.commit} aria-describedby="server-commit-hint" onChange={(e) => setForm('commit', e.currentTarget.checked)} />
          Offer engine_commit
        </label>
        <p class="field-hint" id="server-commit-hint">
          Gives the agent one tool that makes several calls at once, each checked by the guards (--commit).
        </p>
      </div>
      <ListenFields model={m} />
    </Card>
  );
}
