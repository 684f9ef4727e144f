// A new job: choose the kind, fill in its fields (prefilled from ?kind, ?flow, ?domain, or a past job's
// parameters with ?from), see the equivalent command, start it. The checks here are the server's, said
// before anything is sent; the server's own refusal shows beside the Start button and stays until the next
// try. Leaving a filled form asks first.
import { A, useNavigate, useSearchParams } from '@solidjs/router';
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import { JOB_KINDS, type Job, type JobKind } from '../../../shared/jobs.ts';
import { createJob, getFlows, getJob, getSessions } from '../api/endpoints.ts';
import { LeaveGuard } from '../components/form/LeaveGuard.tsx';
import { Icon, type IconName } from '../components/ui/Icon.tsx';
import { Term } from '../components/ui/Term.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, CodeBlock, describedBy, Field, Notice, onEnter, PageHeader, Switch as Toggle } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { commandPreview, defaultFields, defaultSessions, fieldsFromParams, redactOut, requestBody, validate, type FieldErrors, type FlowChoice, type JobFields } from '../lib/jobform.ts';
import { mergeDomainNames } from '../lib/palette.ts';
import { meta, READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { domainNames } from '../stores/domain.ts';
import { errorText } from '../../../shared/error-text.ts';

const KINDS: { kind: JobKind; name: string; line: string; icon: IconName }[] = [
  { kind: 'learn', name: 'Learn', line: 'Learn a flow from recorded sessions.', icon: 'sparkles' },
  { kind: 'promote', name: 'Promote', line: 'Keep a flow to the sites where its lookups were the agent’s own.', icon: 'badge' },
  { kind: 'audit', name: 'Audit', line: 'Score a flow against sessions it did not learn from.', icon: 'file-search' },
  { kind: 'stage', name: 'Stage', line: 'Learn a flow’s next version beside it, and compare the two.', icon: 'branch' },
  { kind: 'redact', name: 'Redact', line: 'Write a pseudonymized copy of sessions, to share.', icon: 'eraser' },
  { kind: 'doctor', name: 'Doctor', line: 'Check the installation.', icon: 'stethoscope' },
];
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

export default function JobNewPage() {
  useTitle(() => 'New job');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const k = one(params.kind);
  const [kind, setKindSignal] = createSignal<JobKind>((JOB_KINDS as readonly string[]).includes(k) ? (k as JobKind) : 'learn');
  const setKind = (x: JobKind) => {
    setKindSignal(x);
    setParams({ kind: x }, { replace: true, scroll: false });
  };
  const [f, setF] = createSignal<JobFields>({ ...defaultFields(), domain: one(params.domain), flow: one(params.flow), sessions: one(params.sessions) });
  // What the form started with (a past job's parameters count as its start): changed from this is "filled".
  const [initial, setInitial] = createSignal(JSON.stringify(f()));
  const [started, setStarted] = createSignal(false);
  const dirty = () => !started() && JSON.stringify(f()) !== initial();
  const set = <K extends keyof JobFields>(key: K, value: JobFields[K]) => setF({ ...f(), [key]: value });

  const flows = createApiResource(
    () => true,
    (_s, signal) => getFlows({ signal }),
    { topics: ['flows'] },
  );
  const sessions = createApiResource(
    () => true,
    (_s, signal) => getSessions({ limit: 200 }, { signal }),
  );
  // Versions in <name>.history/ are not flows to run a job on (issue 15), unless the form was given one.
  const loadable = () => (flows.data()?.items ?? []).filter((x) => x.error === null && (!x.version_of || x.key === f().flow));
  const flow = (): FlowChoice | undefined => {
    const x = loadable().find((y) => y.key === f().flow);
    return x ? { key: x.key, path: x.path, name: x.name, domain: x.domain } : undefined;
  };
  const dirs = () => [...new Set((sessions.data()?.items ?? []).map((s) => s.path.split('/').slice(0, -1).join('/')).filter(Boolean))].sort();
  const domains = () => mergeDomainNames(domainNames(), dirs().map((d) => d.split('/').pop() ?? ''));

  // Run again with parameters: ?from=<job id>
  const from = one(params.from);
  const [source, setSource] = createSignal<Job | null>(null);
  if (from) {
    getJob(from).then(
      (j) => {
        setSource(j);
        setKindSignal(j.kind);
        setF({ ...defaultFields(), ...fieldsFromParams(j.params) });
        setInitial(JSON.stringify(f()));
      },
      () => {},
    );
  }

  const [submitted, setSubmitted] = createSignal(false);
  const [serverError, setServerError] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const errors = (): FieldErrors => (submitted() ? validate(kind(), f(), flow()) : {});
  createEffect(on(kind, () => setServerError(''), { defer: true }));

  let form: HTMLFormElement | undefined;
  const submit = async (e: Event) => {
    e.preventDefault();
    setSubmitted(true);
    setServerError('');
    if (Object.keys(validate(kind(), f(), flow())).length > 0) {
      queueMicrotask(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    try {
      const job = await createJob(requestBody(kind(), f(), flow()));
      setStarted(true);
      navigate(`/jobs/${encodeURIComponent(job.id)}`);
    } catch (err) {
      setServerError(errorText(err));
      // Beside the Start button, where the person is; it stays until the next try.
      queueMicrotask(() => form?.querySelector<HTMLElement>('[data-testid="job-error"]')?.scrollIntoView({ block: 'nearest' }));
    } finally {
      setBusy(false);
    }
  };

  const text = (id: keyof JobFields & string, label: string, opts: { hint?: string; placeholder?: string; optional?: boolean; list?: string; testid?: string; mono?: boolean } = {}) => (
    <Field id={`job-${id}`} label={label} hint={opts.hint} error={errors()[id]} optional={opts.optional}>
      <input
        id={`job-${id}`}
        type="text"
        class={opts.mono === false ? undefined : 'mono'}
        list={opts.list}
        placeholder={opts.placeholder}
        data-testid={opts.testid}
        value={String(f()[id])}
        aria-invalid={errors()[id] ? 'true' : undefined}
        aria-describedby={describedBy(`job-${id}`, errors()[id], Boolean(opts.hint))}
        onInput={(e) => set(id, e.currentTarget.value as never)}
      />
    </Field>
  );
  const sessionsField = (hint: string) =>
    text('sessions', 'Sessions', {
      hint: kind() === 'redact' || defaultSessions(kind(), f(), flow()) === '' ? hint : `${hint} Empty: ${defaultSessions(kind(), f(), flow())}, as the command below shows.`,
      placeholder: defaultSessions(kind(), f(), flow()) || 'logs/<domain>',
      list: 'job-dirs',
      optional: kind() !== 'redact',
    });
  const flowField = (hint?: string) => (
    <Field id="job-flow" label="Flow" hint={hint} error={errors().flow}>
      <select
        id="job-flow"
        data-testid="job-flow"
        value={f().flow}
        aria-invalid={errors().flow ? 'true' : undefined}
        aria-describedby={describedBy('job-flow', errors().flow, Boolean(hint))}
        onChange={(e) => set('flow', e.currentTarget.value)}
      >
        <option value="" selected={f().flow === ''}>
          Choose a flow
        </option>
        {/* selected on each option: the list arrives after the value, and a select keeps no value it lacked. */}
        <For each={loadable()}>
          {(x) => (
            <option value={x.key} selected={x.key === f().flow}>
              {`${x.key} · ${x.domain}`}
            </option>
          )}
        </For>
      </select>
    </Field>
  );
  const deciderField = (first: string) => (
    <Field
      id="job-decider"
      label="Decider"
      optional
      hint={
        <>
          How the flow decides after each call: <Term word="reach" />, <Term word="habit" /> or <Term word="arbiter" />.
        </>
      }
    >
      <select id="job-decider" aria-describedby="job-decider-hint" value={f().decider} onChange={(e) => set('decider', e.currentTarget.value as JobFields['decider'])}>
        <option value="">{first}</option>
        <option value="reach">reach</option>
        <option value="habit">habit</option>
        <option value="arbiter">arbiter (asks the replay cache)</option>
      </select>
    </Field>
  );
  const [hashInput, setHashInput] = createSignal('');
  const addHash = () => {
    const parts = hashInput().split(',').map((s) => s.trim()).filter(Boolean);
    if (parts.length === 0) return;
    set('hash_fields', [...new Set([...f().hash_fields, ...parts])]);
    setHashInput('');
  };

  return (
    <div class="page narrow">
      <PageHeader
        back={{ to: '/jobs', label: 'Jobs' }}
        title="New job"
        sub={
          <>
            Runs the engine CLI in the data dir, <code>{meta()?.data_dir ?? '~/.engine'}</code>. Paths are relative to it, or start with <code>~/</code>.
          </>
        }
      />
      <LeaveGuard dirty={dirty} what="in this job" />
      <form ref={form} class="stack" novalidate onSubmit={(e) => void submit(e)}>
        <Show when={source()}>
          <Notice tone="accent" testid="job-from">
            The parameters of <A href={`/jobs/${encodeURIComponent(source()!.id)}`}>{source()!.title}</A>. Change what it writes, or let it replace the file.
          </Notice>
        </Show>
        <Card title="What to run">
          <div class="radio-cards" role="radiogroup" aria-label="What to run">
            <For each={KINDS}>
              {(x) => (
                <label class="radio-card">
                  <input type="radio" name="kind" value={x.kind} data-testid={`kind-${x.kind}`} checked={kind() === x.kind} onChange={() => setKind(x.kind)} />
                  <Icon name={x.icon} size={18} />
                  <span>
                    <strong>{x.name}</strong>
                    <span class="line">{x.line}</span>
                    <Show when={x.kind === 'redact' && meta()?.salt_set === false}>
                      <span class="line warn-text" data-testid="redact-salt-line">
                        Needs ENGINE_REDACT_SALT, which is not set.
                      </span>
                    </Show>
                  </span>
                </label>
              )}
            </For>
          </div>
        </Card>
        <Card title={KINDS.find((x) => x.kind === kind())?.name ?? ''}>
          <div class="form-grid">
            <Show when={kind() === 'learn'}>
              {text('domain', 'Domain', { hint: 'The flow’s domain: the server’s name.', placeholder: 'shop', list: 'job-domains', testid: 'learn-domain' })}
              {sessionsField('A directory of session logs.')}
              <div class="wide">
                {text('out', 'Write the flow to', {
                  optional: true,
                  placeholder: `${f().domain.trim() || '<domain>'}.flow.json`,
                  hint: `Default ${f().domain.trim() || '<domain>'}.flow.json in the data dir. An existing flow is kept unless you replace it.`,
                })}
              </div>
              <div class="wide stack" style={{ gap: '12px' }}>
                <Toggle id="job-habit" label="With no key (--habit-only)" hint="Ask no System-One model: the flow has no arbiter and is served with reach." checked={f().habit_only} onChange={(x) => set('habit_only', x)} />
                <p class="field-hint">
                  Words: <Term word="System-One model" />, <Term word="Jev" />, <Term word="arbiter" />, <Term word="reach" />.
                </p>
                <Show when={!f().habit_only && meta()?.key_set === false}>
                  <Notice tone="warn">Fitting an arbiter asks Jev, and TYPESAFE_API_KEY is not set in the console’s environment: this job will fail.</Notice>
                </Show>
                <Toggle id="job-constants" label="Constants (--constants)" hint="Also pass arguments the agent always passed with one value, such as a page size." checked={f().constants} onChange={(x) => set('constants', x)} />
                <Toggle id="job-overwrite" label="Replace an existing flow" hint="Without it, the job refuses to write over a flow." checked={f().overwrite} onChange={(x) => set('overwrite', x)} />
              </div>
            </Show>
            <Show when={kind() === 'promote'}>
              {flowField()}
              {sessionsField('Sessions recorded with the flow in shadow, usually.')}
              <fieldset class="wide">
                <legend>The bar a site must meet</legend>
                <div class="form-grid">
                  {text('threshold', 'Threshold', { mono: true })}
                  {text('min_used', 'Least share used')}
                  {text('min_lower', 'Least lower bound')}
                  {text('min_tasks', 'Fewest tasks')}
                </div>
                <p class="field-hint" style={{ 'margin-top': '8px' }}>
                  The threshold is the one the flow will be served with. The lower bound is Wilson’s, 90% two-sided.
                </p>
              </fieldset>
              {text('oracle_cache', 'Oracle cache', { optional: true, placeholder: 'oracle-cache', hint: 'For a flow with an arbiter: the proxy’s cache from the shadow sessions.' })}
              {text('out', 'Write the promoted flow to', { optional: true, placeholder: `${flow()?.name ?? '<flow name>'}.promoted.flow.json` })}
              <div class="wide">
                <Toggle id="job-overwrite" label="Replace an existing flow" hint="Without it, the job refuses to write over a flow." checked={f().overwrite} onChange={(x) => set('overwrite', x)} />
              </div>
            </Show>
            <Show when={kind() === 'audit'}>
              {flowField()}
              {sessionsField('Sessions the flow did not learn from.')}
              {deciderField('As the flow is served by default')}
            </Show>
            <Show when={kind() === 'stage'}>
              {flowField('The committed flow: the staged one is learned beside it.')}
              {sessionsField('Where the proxy records the flow’s sessions, served or in shadow.')}
              {text('window', 'Compare on the last', { hint: 'Sessions both flows were scored on (--window).' })}
              {text('half_life', 'Forget old sessions', { optional: true, placeholder: 'never', hint: 'A half-life, in sessions: one this many older than the newest counts half.' })}
              {deciderField('Each flow as it is served by default')}
              <div class="wide">
                <Toggle id="job-constants" label="Constants (--constants)" hint="Also pass arguments the agent always passed with one value, such as a page size." checked={f().constants} onChange={(x) => set('constants', x)} />
              </div>
            </Show>
            <Show when={kind() === 'redact'}>
              <Show when={meta()?.salt_set === false}>
                <div class="wide" data-testid="redact-no-salt">
                  <Notice tone="warn">
                    No salt is set: ENGINE_REDACT_SALT is not in the console’s environment, so a redact job is refused. Start the console with it set
                    (a secret of your own; the same one for copies whose hashes should match).
                  </Notice>
                </div>
              </Show>
              {sessionsField('A directory of session logs.')}
              {text('out', 'Write the copy to', { placeholder: redactOut(f()) || 'redacted/<dir>' })}
              {text('keep_shared', 'Keep values this many sessions share', { hint: 'A value fewer sessions contain becomes a salted hash.' })}
              <Field id="job-hash" label="Always hash these fields" optional hint="JSON keys whose values identify people, such as user_id or email.">
                <div class="input-with-button">
                  <input
                    id="job-hash"
                    type="text"
                    class="mono"
                    placeholder="user_id"
                    aria-describedby="job-hash-hint"
                    value={hashInput()}
                    onInput={(e) => setHashInput(e.currentTarget.value)}
                    onKeyDown={onEnter(addHash)}
                    style={{ 'padding-left': '10px' }}
                  />
                  <Button size="sm" icon="plus" onClick={addHash}>
                    Add
                  </Button>
                </div>
                <Show when={f().hash_fields.length > 0}>
                  <div class="filters" style={{ gap: '6px' }}>
                    <For each={f().hash_fields}>
                      {(h) => (
                        <span class="badge">
                          <span class="mono">{h}</span>
                          <button type="button" class="btn btn-ghost btn-sm btn-square" style={{ height: '18px', width: '18px' }} aria-label={`Remove ${h}`} onClick={() => set('hash_fields', f().hash_fields.filter((x) => x !== h))}>
                            <Icon name="x" size={12} />
                          </button>
                        </span>
                      )}
                    </For>
                  </div>
                </Show>
              </Field>
              <p class="wide field-hint">
                The salt comes from ENGINE_REDACT_SALT in the console’s environment. Keep it secret, and the same for copies whose hashes should match.
              </p>
            </Show>
            <Show when={kind() === 'doctor'}>
              <p class="wide muted">
                Checks the versions of engine-proxy, engine-procedure and engine-mcp-demo, whether the data dir is writable, whether a key is set (never its
                value), and the flows and sessions in the data dir. It makes no network request.
              </p>
            </Show>
          </div>
        </Card>
        <Card title="Runs" caption="The command the job runs, in the data dir">
          <CodeBlock code={commandPreview(kind(), f(), flow())} language="shell" wrap testid="job-command" />
        </Card>
        <Show when={serverError()}>
          <div data-testid="job-error">
            <Notice tone="danger" role="alert">
              The job did not start: {serverError()}
            </Notice>
          </div>
        </Show>
        <div class="form-actions">
          <Button to="/jobs">Cancel</Button>
          <Button type="submit" variant="primary" icon="play" loading={busy()} disabled={readOnly()} reason={READ_ONLY_REASON} testid="job-start">
            Start the job
          </Button>
        </div>
        <datalist id="job-dirs">
          <For each={dirs()}>{(d) => <option value={d} />}</For>
        </datalist>
        <datalist id="job-domains">
          <For each={domains()}>{(d) => <option value={d} />}</For>
        </datalist>
      </form>
    </div>
  );
}
