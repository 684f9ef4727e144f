// The confirmation judge: off, log or enforce, and the conversation file it reads.
import { Show } from 'solid-js';
import type { FormState } from '../../../lib/server-form.ts';
import { describedBy, Field } from '../../ui/ui.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function JudgeFields(props: { model: ServerFormModel }) {
  const { form, setForm, shown, touch, input } = props.model;
  return (
    <div class="form-grid">
      <Field
        id="server-judge"
        label="Confirmation judge"
        optional
        error={shown('judge')}
        hint="Asks TypeSafe’s Jev, for each write the guards check, whether the conversation confirmed it: log its judgments, or refuse the writes it fails. It needs the guards, a key in the host’s env, and the file the host appends the conversation to."
      >
        <select
          id="server-judge"
          value={form.judge}
          aria-invalid={shown('judge') ? 'true' : undefined}
          aria-describedby={describedBy('server-judge', shown('judge'), true)}
          onChange={(e) => {
            setForm('judge', e.currentTarget.value as FormState['judge']);
            touch('judge');
          }}
        >
          <option value="">Off</option>
          <option value="log">Log its judgments</option>
          <option value="enforce">Refuse what it fails</option>
        </select>
      </Field>
      <Show when={form.judge !== ''}>
        <Field id="server-judge-context" label="Conversation file">
          <input
            id="server-judge-context"
            class="mono"
            placeholder="~/.engine/context/retail.jsonl"
            value={form.judgeContext}
            onInput={input('judgeContext')}
            onBlur={() => touch('judge')}
          />
        </Field>
      </Show>
    </div>
  );
}
