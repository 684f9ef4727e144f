// The fields of each job kind, as the CLI takes them: learn, promote, audit, stage, drift, redact and doctor.
import { Show, type Component } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import type { JobKind } from '../../../../../shared/jobs.ts';
import { redactOut } from '../../../lib/jobform.ts';
import { meta } from '../../../stores/auth.ts';
import { Term } from '../../ui/Term.tsx';
import { Notice, Switch as Toggle } from '../../ui/ui.tsx';
import type { JobFormModel } from './createJobForm.ts';
import { ConstantsToggle, DeciderField, FlowField, HashFieldsField, OverwriteToggle, SessionsField, TextField } from './FormFields.tsx';

type KindProps = { model: JobFormModel };

function LearnFields(props: KindProps) {
  const m = props.model;
  const domain = () => m.f().domain.trim() || '<domain>';
  return (
    <>
      <TextField model={m} id="domain" label="Domain" hint="The flow’s domain: the server’s name." placeholder="shop" list="job-domains" testid="learn-domain" />
      <SessionsField model={m} hint="A directory of session logs." />
      <div class="wide">
        <TextField
          model={m}
          id="out"
          label="Write the flow to"
          optional
          placeholder={`${domain()}.flow.json`}
          hint={`Default ${domain()}.flow.json in the data dir. An existing flow is kept unless you replace it.`}
        />
      </div>
      <div class="wide stack" style={{ gap: '12px' }}>
        <Toggle id="job-habit" label="With no key (--habit-only)" hint="Ask no System-One model: the flow has no arbiter and is served with reach." checked={m.f().habit_only} onChange={(x) => m.set('habit_only', x)} />
        <p class="field-hint">
          Words: <Term word="System-One model" />, <Term word="Jev" />, <Term word="arbiter" />, <Term word="reach" />.
        </p>
        <Show when={!m.f().habit_only && meta()?.key_set === false}>
          <Notice tone="warn">Fitting an arbiter asks Jev, and TYPESAFE_API_KEY is not set in the console’s environment: this job will fail.</Notice>
        </Show>
        <ConstantsToggle model={m} />
        <OverwriteToggle model={m} />
      </div>
    </>
  );
}

function PromoteFields(props: KindProps) {
  const m = props.model;
  return (
    <>
      <FlowField model={m} />
      <SessionsField model={m} hint="Sessions recorded with the flow in shadow, usually." />
      <fieldset class="wide">
        <legend>The bar a site must meet</legend>
        <div class="form-grid">
          <TextField model={m} id="threshold" label="Threshold" mono />
          <TextField model={m} id="min_used" label="Least share used" />
          <TextField model={m} id="min_lower" label="Least lower bound" />
          <TextField model={m} id="min_tasks" label="Fewest tasks" />
        </div>
        <p class="field-hint" style={{ 'margin-top': '8px' }}>
          The threshold is the one the flow will be served with. The lower bound is Wilson’s, 90% two-sided.
        </p>
      </fieldset>
      <TextField model={m} id="oracle_cache" label="Oracle cache" optional placeholder="oracle-cache" hint="For a flow with an arbiter: the proxy’s cache from the shadow sessions." />
      <TextField model={m} id="out" label="Write the promoted flow to" optional placeholder={`${m.flow()?.name ?? '<flow name>'}.promoted.flow.json`} />
      <div class="wide">
        <OverwriteToggle model={m} />
      </div>
    </>
  );
}

function AuditFields(props: KindProps) {
  return (
    <>
      <FlowField model={props.model} />
      <SessionsField model={props.model} hint="Sessions the flow did not learn from." />
      <DeciderField model={props.model} first="As the flow is served by default" />
    </>
  );
}

function StageFields(props: KindProps) {
  const m = props.model;
  return (
    <>
      <FlowField model={m} hint="The committed flow: the staged one is learned beside it." />
      <SessionsField model={m} hint="Where the proxy records the flow’s sessions, served or in shadow." />
      <TextField model={m} id="window" label="Compare on the last" hint="Sessions both flows were scored on (--window)." />
      <TextField model={m} id="half_life" label="Forget old sessions" optional placeholder="never" hint="A half-life, in sessions: one this many older than the newest counts half." />
      <DeciderField model={m} first="Each flow as it is served by default" />
      <div class="wide">
        <ConstantsToggle model={m} />
      </div>
    </>
  );
}

function DriftFields(props: KindProps) {
  const m = props.model;
  return (
    <>
      <FlowField model={m} />
      <SessionsField model={m} hint="The flow’s sessions, served or in shadow, in the order they ran." />
      <TextField model={m} id="drift_window" label="A change within the last" hint="Sessions (--window): the alarm reports a change this recent. 3 or more." />
      <TextField model={m} id="drift_threshold" label="Sound the alarm at" hint="The probability of a recent change that sounds the alarm (--threshold)." />
      <DeciderField model={m} first="The habit (the CLI’s default)" />
    </>
  );
}

function RedactFields(props: KindProps) {
  const m = props.model;
  return (
    <>
      <Show when={meta()?.salt_set === false}>
        <div class="wide" data-testid="redact-no-salt">
          <Notice tone="warn">
            No salt is set: ENGINE_REDACT_SALT is not in the console’s environment, so a redact job is refused. Start the console with it set
            (a secret of your own; the same one for copies whose hashes should match).
          </Notice>
        </div>
      </Show>
      <SessionsField model={m} hint="A directory of session logs." />
      <TextField model={m} id="out" label="Write the copy to" placeholder={redactOut(m.f()) || 'redacted/<dir>'} />
      <TextField model={m} id="keep_shared" label="Keep values this many sessions share" hint="A value fewer sessions contain becomes a salted hash." />
      <HashFieldsField model={m} />
      <p class="wide field-hint">
        The salt comes from ENGINE_REDACT_SALT in the console’s environment. Keep it secret, and the same for copies whose hashes should match.
      </p>
    </>
  );
}

function DoctorFields() {
  return (
    <p class="wide muted">
      Checks the versions of engine-proxy, engine-procedure and engine-mcp-demo, whether the data dir is writable, whether a key is set (never its
      value), and the flows and sessions in the data dir. It makes no network request.
    </p>
  );
}

const FIELDS: Record<JobKind, Component<KindProps>> = {
  learn: LearnFields,
  promote: PromoteFields,
  audit: AuditFields,
  stage: StageFields,
  drift: DriftFields,
  redact: RedactFields,
  doctor: DoctorFields,
};

/** The fields of the kind chosen. */
export function KindFields(props: KindProps) {
  return (
    <div class="form-grid">
      <Dynamic component={FIELDS[props.model.kind()]} model={props.model} />
    </div>
  );
}
