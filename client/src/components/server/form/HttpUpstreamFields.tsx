// An HTTP upstream: its URL, and the headers the proxy sends, each from an environment variable.
import { For, Show } from 'solid-js';
import { Icon } from '../../ui/Icon.tsx';
import { Button, Field } from '../../ui/ui.tsx';
import { CheckedInput } from './CheckedInput.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function HttpUpstreamFields(props: { model: ServerFormModel }) {
  const m = props.model;
  const { form, setForm, shown, touch } = m;
  return (
    <>
      <Field
        id="server-url"
        label="URL"
        error={shown('url')}
        hint="The server’s Streamable HTTP endpoint (MCP 2025-06-18). Leave credentials out: send them in a header."
      >
        <CheckedInput
          model={m}
          id="server-url"
          field="url"
          check="url"
          data-testid="server-url"
          inputmode="url"
          class="mono"
          placeholder="https://example.com/mcp"
        />
      </Field>
      <fieldset class="field headers">
        <legend>
          Headers, from environment variables <span class="optional">optional</span>
        </legend>
        <p class="field-hint">
          Each is <code>--upstream-header NAME=VAR</code>: the proxy sends header NAME with the value of variable VAR. Values are
          never logged or stored.
        </p>
        <For each={form.headers}>
          {(h, i) => {
            const rowError = () => m.headerError(i());
            return (
              <div class="header-row">
                <input
                  class="mono"
                  placeholder="Authorization"
                  aria-label={`Header ${i() + 1}: name`}
                  value={h.name}
                  aria-invalid={rowError() ? 'true' : undefined}
                  onInput={(e) => setForm('headers', i(), 'name', e.currentTarget.value)}
                  onBlur={() => touch(`header-${i()}`)}
                />
                <span aria-hidden="true">←</span>
                <input
                  class="mono"
                  placeholder="ORDERS_AUTH"
                  aria-label={`Header ${i() + 1}: variable`}
                  value={h.env}
                  aria-invalid={rowError() ? 'true' : undefined}
                  onInput={(e) => setForm('headers', i(), 'env', e.currentTarget.value)}
                  onBlur={() => touch(`header-${i()}`)}
                />
                <button
                  type="button"
                  class="btn btn-ghost btn-sm btn-square"
                  aria-label={`Remove header ${i() + 1}`}
                  title={`Remove header ${i() + 1}`}
                  onClick={() => setForm('headers', (hs) => hs.filter((_, j) => j !== i()))}
                >
                  <Icon name="x" />
                </button>
                <Show when={rowError()}>
                  <p class="field-error header-error">{rowError()}</p>
                </Show>
              </div>
            );
          }}
        </For>
        <Button size="sm" icon="plus" onClick={() => setForm('headers', (hs) => [...hs, { name: '', env: '' }])}>
          Add a header
        </Button>
      </fieldset>
    </>
  );
}
