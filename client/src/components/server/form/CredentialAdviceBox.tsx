// Shown when the command carries a credential: the registry keeps names, never values, so the credential
// goes through a variable; offers the command without it, or a script that reads the variable.
import { Show } from 'solid-js';
import { Button, CodeBlock } from '../../ui/ui.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function CredentialAdviceBox(props: { model: ServerFormModel }) {
  const { advice, useCommand } = props.model;
  return (
    <Show when={advice()}>
      {(a) => (
        <div class="credential-advice" data-testid="credential-advice">
          <p>
            The registry keeps variable names, never values, and the host starts the server without a shell, so{' '}
            <code>$VARIABLE</code> in the command would stay as it is. Give the server the credential through the variable{' '}
            <code>{a().variable}</code> instead, then set its value in the host’s <code>env</code> for the server.
          </p>
          <Show when={a().withoutWord}>
            {(rest) => (
              <p>
                The server reads <code>{a().variable}</code> itself: list it below and leave it out of the command.{' '}
                <Button size="sm" testid="advice-env" onClick={() => useCommand(rest(), a().variable)}>
                  List {a().variable} instead
                </Button>
              </p>
            )}
          </Show>
          <Show when={!a().withoutWord}>
            <p>A server that takes it only as an argument can be started by a small script that reads the variable. Save this as <code>{a().scriptPath}</code> and make it executable (<code>chmod +x</code>):</p>
            <CodeBlock language="shell" what="Script" code={a().script} testid="advice-script" />
            <div class="row-actions">
              <Button size="sm" testid="advice-script-use" onClick={() => useCommand([a().scriptPath], a().variable)}>
                Use the script as the command
              </Button>
              <Show when={a().oneLine}>
                {(line) => (
                  <Button size="sm" testid="advice-one-line" onClick={() => useCommand(line(), a().variable)}>
                    Use it as one sh -c command
                  </Button>
                )}
              </Show>
            </div>
          </Show>
        </div>
      )}
    </Show>
  );
}
