// A stdio upstream: the command, word by word, advice when it carries a credential, and the variables it needs.
import { For, Show } from 'solid-js';
import { maskCredential } from '../../../lib/server-form.ts';
import { Field } from '../../ui/ui.tsx';
import { CredentialAdviceBox } from './CredentialAdviceBox.tsx';
import { EnvNamesField } from './EnvNamesField.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function StdioUpstreamFields(props: { model: ServerFormModel }) {
  const m = props.model;
  const { shown, words } = m;
  return (
    <>
      <Field
        id="server-command"
        label="Command"
        error={shown('command')}
        hint="The server’s command and its arguments, as a shell reads them. The proxy starts it and inherits the host’s environment."
      >
        <CheckedInput
          model={m}
          id="server-command"
          field="command"
          check="command"
          data-testid="server-command"
          class="mono"
          autocomplete="off"
          spellcheck={false}
          placeholder="npx -y @your/mcp-server"
        />
      </Field>
      <Show when={words().length > 1}>
        <ul class="chips" aria-label="The command, word by word">
          <For each={maskCredential(words())}>{(w) => <li class="chip mono">{w === '' ? "''" : w}</li>}</For>
        </ul>
      </Show>
      <CredentialAdviceBox model={m} />
      <EnvNamesField model={m} />
    </>
  );
}
