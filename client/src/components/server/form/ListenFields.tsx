// One proxy that hosts reach by URL (--listen), and the file holding the token they send.
import { Field } from '../../ui/ui.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function ListenFields(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, shown, touch, input } = m;
  return (
    <div class="form-grid">
      <Field
        id="server-listen"
        label="Listen at"
        optional
        error={shown('listen')}
        hint="Run one proxy that hosts connect to by URL (--listen host:port), in place of each host starting its own. Claude Desktop still starts its own."
      >
        <CheckedInput
          model={m}
          id="server-listen"
          field="listenAddr"
          check="listen"
          class="mono"
          autocomplete="off"
          placeholder="127.0.0.1:8931"
        />
      </Field>
      <Field id="server-listen-token" label="Token file" optional hint="The file holding the token hosts must send to the listening proxy.">
        <input
          id="server-listen-token"
          class="mono"
          autocomplete="off"
          placeholder="~/.engine/proxy-token"
          value={form.listenTokenFile}
          aria-describedby="server-listen-token-hint"
          onInput={input('listenTokenFile')}
          onBlur={() => touch('listen')}
        />
      </Field>
    </div>
  );
}
