// One proxy that hosts reach by URL (--listen), and the file holding the token they send.
import { describedBy, Field } from '../../ui/ui.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function ListenFields(props: { model: ServerFormModel }) {
  const { form, shown, touch, input } = props.model;
  return (
    <div class="form-grid">
      <Field
        id="server-listen"
        label="Listen at"
        optional
        error={shown('listen')}
        hint="Run one proxy that hosts connect to by URL (--listen host:port), in place of each host starting its own. Claude Desktop still starts its own."
      >
        <input
          id="server-listen"
          class="mono"
          autocomplete="off"
          placeholder="127.0.0.1:8931"
          value={form.listenAddr}
          aria-invalid={shown('listen') ? 'true' : undefined}
          aria-describedby={describedBy('server-listen', shown('listen'), true)}
          onInput={input('listenAddr')}
          onBlur={() => touch('listen')}
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
