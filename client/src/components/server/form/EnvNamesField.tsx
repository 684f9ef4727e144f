// The variables a stdio server needs, by name only: a chip each, and a box to add one (checked as it is added).
import { createSignal, For, Show } from 'solid-js';
import { envNameError } from '../../../lib/server-form.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Button, describedBy, onEnter } from '../../ui/ui.tsx';
import type { ServerFormModel } from './createServerForm.ts';

export function EnvNamesField(props: { model: ServerFormModel }) {
  const { form, setForm, shown } = props.model;
  const [envDraft, setEnvDraft] = createSignal('');
  const [envProblem, setEnvProblem] = createSignal<string | null>(null);
  const addEnv = () => {
    const name = envDraft().trim();
    const problem = envNameError(name);
    if (problem) {
      setEnvProblem(problem);
      return;
    }
    setEnvProblem(null);
    if (!form.env.includes(name)) setForm('env', (e) => [...e, name]);
    setEnvDraft('');
  };
  return (
    <div class={`field${envProblem() || shown('env') ? ' invalid' : ''}`}>
      <label for="server-env">
        Environment variables it needs <span class="optional">optional</span>
      </label>
      <Show when={form.env.length > 0}>
        <ul class="chips">
          <For each={form.env}>
            {(name) => (
              <li class="chip mono">
                {name}
                <button
                  type="button"
                  class="chip-x"
                  aria-label={`Remove ${name}`}
                  title={`Remove ${name}`}
                  onClick={() => setForm('env', (e) => e.filter((x) => x !== name))}
                >
                  <Icon name="x" size={12} />
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <div class="inline-add">
        <input
          id="server-env"
          class="mono"
          placeholder="ORDERS_API_KEY"
          autocomplete="off"
          spellcheck={false}
          value={envDraft()}
          aria-invalid={envProblem() ? 'true' : undefined}
          aria-describedby={describedBy('server-env', envProblem(), true)}
          onInput={(e) => setEnvDraft(e.currentTarget.value)}
          onKeyDown={onEnter(addEnv)}
        />
        <Button size="sm" icon="plus" onClick={addEnv}>
          Add
        </Button>
      </div>
      <Show when={envProblem() ?? shown('env')}>
        <p class="field-error" id="server-env-error">
          {envProblem() ?? shown('env')}
        </p>
      </Show>
      <p class="field-hint" id="server-env-hint">
        Names only, for the record: values stay in the host’s env for the server and are never stored or shown here.
      </p>
    </div>
  );
}
