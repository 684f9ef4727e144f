// The add/edit server form: the server, where it runs (a command or a URL), what the proxy does (record,
// shadow, serve, with a flow), and a live preview of the proxy's command line. Checks run as the registry
// runs them; errors show after a field loses focus or after the first submit, and a submit with errors
// focuses the first invalid control and sends nothing.
import { createEffect, createMemo, createSignal, For, Show } from 'solid-js';
import { LeaveGuard } from '../form/LeaveGuard.tsx';
import { createStore } from 'solid-js/store';
import { Icon } from '../ui/Icon.tsx';
import { Button, Card, CodeBlock, describedBy, Field, Notice, onEnter, Segmented } from '../ui/ui.tsx';
import {
  commandText, credentialAdvice, envNameError, flowChoices, flowDomainWarning, GUARDED_DOMAINS, hasErrors, maskCredential, previewText,
  splitShell, validateForm, type FieldErrors, type FlowChoiceInput, type FormState, type Mode,
} from '../../lib/server-form.ts';

export interface ServerFormProps {
  initial: FormState;
  isNew: boolean;
  /** The names of the other servers. */
  taken: string[];
  flows: FlowChoiceInput[];
  dataDirShown: string;
  /** The console's data directory, absolute. */
  dataDir: string;
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
  // Leaving a changed form asks first, unless it was just sent (a refusal brings the question back).
  const startedAs = JSON.stringify(props.initial);
  const [sent, setSent] = createSignal(false);
  createEffect(() => {
    if (props.problem !== null) setSent(false);
  });
  const dirty = () => !sent() && JSON.stringify(form) !== startedAs;
  const [envDraft, setEnvDraft] = createSignal('');
  const [envProblem, setEnvProblem] = createSignal<string | null>(null);
  const choices = createMemo(() => flowChoices(props.flows, form.name));
  const [otherPath, setOtherPath] = createSignal(form.flow !== '' && !flowChoices(props.flows, form.name).some((c) => c.value === form.flow));

  // `taken` holds only the other servers, so a name is refused when another server has it, new or renamed.
  const errors = createMemo<FieldErrors>(() => validateForm(form, props.taken, true));
  const renamed = () => !props.isNew && form.name.trim() !== props.initial.name;
  const flowWarning = createMemo(() =>
    form.mode === 'record' ? null : flowDomainWarning(props.flows, form.flow, form.name, [props.dataDirShown, props.dataDir]),
  );
  const useCommand = (command: readonly string[], variable: string) => {
    setForm('command', commandText(command));
    if (!form.env.includes(variable)) setForm('env', (e) => [...e, variable]);
  };
  const shown = (field: keyof FieldErrors & string) => (submitted() || touched().has(field) ? (errors()[field] as string | undefined) : undefined) ?? null;
  const touch = (field: string) => setTouched((t) => new Set(t).add(field));
  const words = createMemo(() => {
    const split = splitShell(form.command);
    return split.ok ? split.words : [];
  });
  const preview = createMemo(() => previewText(form, props.dataDirShown));
  const advice = createMemo(() => (form.kind === 'stdio' ? credentialAdvice(words(), props.dataDir) : null));
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
    setSent(true);
    props.onSubmit(structuredClone({ ...form, env: [...form.env], headers: form.headers.map((h) => ({ ...h })) }));
  };

  const input = (
    field: 'name' | 'description' | 'command' | 'url' | 'threshold' | 'recordDir' | 'surpriseNats' | 'flowTools' | 'judgeContext' | 'retainDays' | 'listenAddr' | 'listenTokenFile',
  ) => (e: InputEvent & { currentTarget: HTMLInputElement }) =>
    setForm(field, e.currentTarget.value);

  return (
    <form ref={formEl} class="server-form stack" novalidate onSubmit={submit}>
      <LeaveGuard dirty={dirty} what="in this server" />
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
            hint={
              props.isNew
                ? 'The name the host gives the server, which is also the domain of its sessions and flows: lowercase letters, digits, - and _.'
                : `Renaming changes the name hosts know the server by and the domain its new sessions are recorded under. Sessions and flows recorded as ${props.initial.name} keep that name, and each host needs its configuration pasted again.`
            }
          >
            <input
              id="server-name"
              data-testid="server-name"
              class="mono"
              autocomplete="off"
              spellcheck={false}
              placeholder="orders"
              value={form.name}
              aria-invalid={shown('name') ? 'true' : undefined}
              aria-describedby={describedBy('server-name', shown('name'), true)}
              onInput={input('name')}
              onBlur={() => touch('name')}
            />
          </Field>
          <Show when={renamed() && !shown('name')}>
            <Notice tone="info" role="status" testid="rename-notice">
              Saving renames {props.initial.name} to {form.name.trim()}. The sessions and flows of {props.initial.name} stay under that
              domain; a flow for {form.name.trim()} is learned from its new sessions.
            </Notice>
          </Show>
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
              <For each={maskCredential(words())}>{(w) => <li class="chip mono">{w === '' ? "''" : w}</li>}</For>
            </ul>
          </Show>
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
              hint={
                choices().length === 0
                  ? `No flow of domain ${form.name.trim() || '(the server’s name)'} yet: learn one from this server’s recorded sessions first.`
                  : `Flows of domain ${form.name.trim()}, learned from this server’s sessions.`
              }
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
                      aria-describedby={describedBy('server-flow', shown('flow'), true)}
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
                  aria-describedby={describedBy('server-flow', shown('flow'), true)}
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

      <Card title="The proxy’s policy" caption="What the proxy does besides recording and running the flow. Each is off unless you set it.">
        <div class="form-grid">
          <Show when={form.mode !== 'record'}>
            <Field
              id="server-surprise"
              label="Surprise gate"
              optional
              error={shown('surprise')}
              hint="The flow hands back to the agent for the rest of a session once the agent’s steps surprise it: on average more than this many nats (−ln of the habit’s probability) over the flow’s window. By default the flow’s own gate applies."
            >
              <div class="inline-add">
                <select
                  id="server-surprise"
                  value={form.surprise}
                  aria-describedby={describedBy('server-surprise', shown('surprise'), true)}
                  onChange={(e) => setForm('surprise', e.currentTarget.value as FormState['surprise'])}
                >
                  <option value="">The flow’s own gate</option>
                  <option value="off">Off: never hand back on surprise</option>
                  <option value="threshold">At a threshold, in nats</option>
                </select>
                <Show when={form.surprise === 'threshold'}>
                  <input
                    id="server-surprise-nats"
                    aria-label="Surprise threshold, in nats"
                    type="number"
                    min="0"
                    step="0.1"
                    inputmode="decimal"
                    placeholder="2.5"
                    value={form.surpriseNats}
                    aria-invalid={shown('surprise') ? 'true' : undefined}
                    onInput={input('surpriseNats')}
                    onBlur={() => touch('surprise')}
                  />
                </Show>
              </div>
            </Field>
            <Field
              id="server-flow-tools"
              label="Tools the flow may call"
              optional
              error={shown('flowTools')}
              hint="The only tools the flow may look up on its own (--flow-tools), separated by commas or spaces. Empty: every lookup the flow knows."
            >
              <input
                id="server-flow-tools"
                class="mono"
                autocomplete="off"
                spellcheck={false}
                placeholder="get_order_details, get_user_details"
                value={form.flowTools}
                aria-invalid={shown('flowTools') ? 'true' : undefined}
                aria-describedby={describedBy('server-flow-tools', shown('flowTools'), true)}
                onInput={input('flowTools')}
                onBlur={() => touch('flowTools')}
              />
            </Field>
          </Show>
          <Field
            id="server-retain"
            label="Keep sessions for"
            optional
            error={shown('retainDays')}
            hint="When the proxy starts, it deletes what is older than this many days: the sessions it recorded, the logs beside them, and its cached answers. Empty: keep everything."
          >
            <input
              id="server-retain"
              type="number"
              min="1"
              step="1"
              inputmode="numeric"
              placeholder="days"
              value={form.retainDays}
              aria-invalid={shown('retainDays') ? 'true' : undefined}
              aria-describedby={describedBy('server-retain', shown('retainDays'), true)}
              onInput={input('retainDays')}
              onBlur={() => touch('retainDays')}
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
        <div class="field">
          <label class="check">
            <input type="checkbox" id="server-commit" checked={form.commit} aria-describedby="server-commit-hint" onChange={(e) => setForm('commit', e.currentTarget.checked)} />
            Offer engine_commit
          </label>
          <p class="field-hint" id="server-commit-hint">
            Gives the agent one tool that makes several calls at once, each checked by the guards (--commit).
          </p>
        </div>
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

