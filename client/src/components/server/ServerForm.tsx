// The add/edit server form: the server, where it runs (a command or a URL), what the proxy does (record,
// shadow, serve, with a flow), and a live preview of the proxy's command line. Checks run as the registry
// runs them; errors show after a field loses focus or after the first submit, and a submit with errors
// focuses the first invalid control and sends nothing.
import { createMemo, createSignal, For, Show } from 'solid-js';
import { createStore } from 'solid-js/store';
import { Icon } from '../ui/Icon.tsx';
import { Button, Card, CodeBlock, describedBy, Field, Notice, onEnter, Segmented } from '../ui/ui.tsx';
import {
  envNameError, flowChoices, hasErrors, previewText, splitShell, validateForm, type FieldErrors, type FlowChoiceInput,
  type FormState, type Mode,
} from '../../lib/server-form.ts';

export interface ServerFormProps {
  initial: FormState;
  isNew: boolean;
  taken: string[];
  flows: FlowChoiceInput[];
  dataDirShown: string;
  busy: boolean;
  problem: string | null;
  cancelTo: string;
  onSubmit: (form: FormState) => void;
}

const OTHER = '__other__';

const MODES: { value: Mode; title: string; text: string }[] = [
  { value: 'record', title: 'Record', text: 'Forward every message and record each session. No flow runs. Start here.' },
  { value: 'shadow', title: 'Shadow', text: 'Run a flow that decides and logs what it would look up, and looks nothing up: the sessions engine promote scores.' },
  { value: 'serve', title: 'Serve', text: 'Run a flow: after each of the agent’s calls, its lookups ride in the same result.' },
];

export default function ServerForm(props: ServerFormProps) {
  // The form starts from the initial values and then owns them.
  const [form, setForm] = createStore<FormState>(structuredClone(props.initial));
  const [touched, setTouched] = createSignal<Set<string>>(new Set());
  const [submitted, setSubmitted] = createSignal(false);
  const [envDraft, setEnvDraft] = createSignal('');
  const [envProblem, setEnvProblem] = createSignal<string | null>(null);
  const choices = createMemo(() => flowChoices(props.flows, form.name));
  const [otherPath, setOtherPath] = createSignal(form.flow !== '' && !flowChoices(props.flows, form.name).some((c) => c.value === form.flow));

  const errors = createMemo<FieldErrors>(() => validateForm(form, props.taken, props.isNew));
  const shown = (field: keyof FieldErrors & string) => (submitted() || touched().has(field) ? (errors()[field] as string | undefined) : undefined) ?? null;
  const touch = (field: string) => setTouched((t) => new Set(t).add(field));
  const words = createMemo(() => {
    const split = splitShell(form.command);
    return split.ok ? split.words : [];
  });
  const preview = createMemo(() => previewText(form, props.dataDirShown));
  let formEl!: HTMLFormElement;

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

  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (hasErrors(errors())) {
      queueMicrotask(() => formEl.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    props.onSubmit(structuredClone({ ...form, env: [...form.env], headers: form.headers.map((h) => ({ ...h })) }));
  };

  const input = (field: 'name' | 'description' | 'command' | 'url' | 'threshold' | 'recordDir') => (e: InputEvent & { currentTarget: HTMLInputElement }) =>
    setForm(field, e.currentTarget.value);

  return (
    <form ref={formEl} class="server-form stack" novalidate onSubmit={submit}>
      <Show when={props.problem}>
        <Notice tone="danger" role="alert">
          {props.problem}
        </Notice>
      </Show>
      <Card title="The server">
        <div class="form-grid">
          <Field
            id="server-name"
            label="Name"
            error={shown('name')}
            hint="The name the host gives the server, which is also the domain of its sessions and flows: lowercase letters, digits, - and _."
          >
            <input
              id="server-name"
              data-testid="server-name"
              class="mono"
              autocomplete="off"
              spellcheck={false}
              placeholder="orders"
              value={form.name}
              disabled={!props.isNew}
              aria-invalid={shown('name') ? 'true' : undefined}
              aria-describedby={describedBy('server-name', shown('name'), true)}
              onInput={input('name')}
              onBlur={() => touch('name')}
            />
          </Field>
          <Field id="server-description" label="Description" optional error={shown('description')}>
            <input
              id="server-description"
              placeholder="What it serves"
              value={form.description}
              aria-invalid={shown('description') ? 'true' : undefined}
              aria-describedby={describedBy('server-description', shown('description'), false)}
              onInput={input('description')}
              onBlur={() => touch('description')}
            />
          </Field>
        </div>
      </Card>

      <Card title="Where it runs">
        <div class="field">
          <span class="field-label" aria-hidden="true">Upstream</span>
          <Segmented
            label="Upstream"
            value={form.kind}
            options={[
              { value: 'stdio', label: 'A command (stdio)', icon: 'terminal' },
              { value: 'http', label: 'A URL (Streamable HTTP)', icon: 'compass' },
            ]}
            onChange={(k) => setForm('kind', k)}
          />
        </div>
        <Show
          when={form.kind === 'stdio'}
          fallback={
            <>
              <Field
                id="server-url"
                label="URL"
                error={shown('url')}
                hint="The server’s Streamable HTTP endpoint (MCP 2025-06-18). Leave credentials out: send them in a header."
              >
                <input
                  id="server-url"
                  data-testid="server-url"
                  inputmode="url"
                  class="mono"
                  placeholder="https://example.com/mcp"
                  value={form.url}
                  aria-invalid={shown('url') ? 'true' : undefined}
                  aria-describedby={describedBy('server-url', shown('url'), true)}
                  onInput={input('url')}
                  onBlur={() => touch('url')}
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
                    const rowError = () => (submitted() || touched().has(`header-${i()}`) ? (errors().headerRows?.[i()] ?? null) : null);
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
          }
        >
          <Field
            id="server-command"
            label="Command"
            error={shown('command')}
            hint="The server’s command and its arguments, as a shell reads them. The proxy starts it and inherits the host’s environment."
          >
            <input
              id="server-command"
              data-testid="server-command"
              class="mono"
              autocomplete="off"
              spellcheck={false}
              placeholder="npx -y @your/mcp-server"
              value={form.command}
              aria-invalid={shown('command') ? 'true' : undefined}
              aria-describedby={describedBy('server-command', shown('command'), true)}
              onInput={input('command')}
              onBlur={() => touch('command')}
            />
          </Field>
          <Show when={words().length > 1}>
            <ul class="chips" aria-label="The command, word by word">
              <For each={words()}>{(w) => <li class="chip mono">{w === '' ? "''" : w}</li>}</For>
            </ul>
          </Show>
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
        </Show>
      </Card>

      <Card title="What the proxy does">
        <div class="radio-cards mode-cards" role="radiogroup" aria-label="Mode">
          <For each={MODES}>
            {(m) => (
              <label class={`radio-card mode-card-${m.value}`}>
                <input type="radio" name="server-mode" value={m.value} checked={form.mode === m.value} onChange={() => setForm('mode', m.value)} />
                <span>
                  <strong>{m.title}</strong>
                  <span class="line">{m.text}</span>
                </span>
              </label>
            )}
          </For>
        </div>
        <Show when={form.mode !== 'record'}>
          <div class="form-grid">
            <Field
              id="server-flow"
              label="Flow"
              error={shown('flow')}
              hint={choices().length === 0 ? 'No flow in the data dir yet: learn one from this server’s recorded sessions first.' : undefined}
            >
              <Show
                when={!otherPath()}
                fallback={
                  <div class="inline-add">
                    <input
                      id="server-flow"
                      data-testid="server-flow"
                      class="mono"
                      placeholder="~/.engine/orders.flow.json"
                      value={form.flow}
                      aria-invalid={shown('flow') ? 'true' : undefined}
                      aria-describedby={describedBy('server-flow', shown('flow'), choices().length === 0)}
                      onInput={(e) => setForm('flow', e.currentTarget.value)}
                      onBlur={() => touch('flow')}
                    />
                    <Button size="sm" onClick={() => { setOtherPath(false); setForm('flow', ''); }}>
                      Choose
                    </Button>
                  </div>
                }
              >
                <select
                  id="server-flow"
                  data-testid="server-flow"
                  value={form.flow}
                  aria-invalid={shown('flow') ? 'true' : undefined}
                  aria-describedby={describedBy('server-flow', shown('flow'), choices().length === 0)}
                  onChange={(e) => {
                    if (e.currentTarget.value === OTHER) {
                      setOtherPath(true);
                      setForm('flow', '');
                    } else setForm('flow', e.currentTarget.value);
                  }}
                  onBlur={() => touch('flow')}
                >
                  <option value="">Choose a flow</option>
                  <For each={choices()}>{(c) => <option value={c.value}>{c.label}</option>}</For>
                  <option value={OTHER}>Another path…</option>
                </select>
              </Show>
            </Field>
            <Field id="server-decider" label="Decider" optional>
              <select id="server-decider" value={form.decider} onChange={(e) => setForm('decider', e.currentTarget.value as FormState['decider'])}>
                <option value="">The flow’s default</option>
                <option value="reach">reach: counts, asks no model</option>
                <option value="habit">habit: counts, asks no model</option>
                <option value="arbiter">arbiter: asks Jev, needs a key</option>
              </select>
            </Field>
            <Field id="server-threshold" label="Threshold" optional error={shown('threshold')}>
              <input
                id="server-threshold"
                type="number"
                min="0"
                max="1"
                step="0.01"
                inputmode="decimal"
                placeholder="0.3"
                value={form.threshold}
                aria-invalid={shown('threshold') ? 'true' : undefined}
                aria-describedby={describedBy('server-threshold', shown('threshold'), false)}
                onInput={input('threshold')}
                onBlur={() => touch('threshold')}
              />
            </Field>
          </div>
        </Show>
        <Field id="server-record" label="Record to" optional>
          <input
            id="server-record"
            class="mono"
            placeholder={`${props.dataDirShown}/${form.mode === 'shadow' ? 'shadow' : 'logs'}/${form.name.trim() || '<name>'}`}
            value={form.recordDir}
            onInput={input('recordDir')}
          />
        </Field>
      </Card>

      <Card title="The proxy’s command line" caption="A preview. The console writes the exact one, and each host’s configuration, when you save.">
        <div data-testid="server-preview">
          <CodeBlock language="shell" wrap what="Command" code={preview()} />
        </div>
      </Card>

      <div class="form-actions">
        <Button to={props.cancelTo}>Cancel</Button>
        <Button type="submit" variant="primary" loading={props.busy} testid="server-save">
          {props.isNew ? 'Add the server' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}

