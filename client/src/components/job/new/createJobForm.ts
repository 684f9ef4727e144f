// The new-job form's state: the kind, the fields as typed, the checks (shown after the first submit), the
// leave guard's "changed", and what the loaded flows and sessions offer (the flow chosen, the session
// directories and domains to suggest). The kind's fields (KindFields.tsx) read and write it.
import { createSignal, type Accessor } from 'solid-js';
import type { FlowSummary } from '../../../../../shared/flows.ts';
import type { JobKind } from '../../../../../shared/jobs.ts';
import type { SessionSummary } from '../../../../../shared/sessions.ts';
import { defaultFields, validate, type FieldErrors, type FlowChoice, type JobFields } from '../../../lib/jobform.ts';
import { mergeDomainNames } from '../../../lib/palette.ts';
import { domainNames } from '../../../stores/domain.ts';

/** The fields typed into a text box. */
export type TextFieldKey = { [K in keyof JobFields]: JobFields[K] extends string ? K : never }[keyof JobFields];

export function createJobForm(
  start: { kind: JobKind; fields: Partial<JobFields> },
  loaded: { flows: Accessor<FlowSummary[]>; sessions: Accessor<SessionSummary[]> },
) {
  const [kind, setKind] = createSignal<JobKind>(start.kind);
  const [f, setF] = createSignal<JobFields>({ ...defaultFields(), ...start.fields });
  // What the form started with (a past job's parameters count as its start): changed from this is "filled".
  const [initial, setInitial] = createSignal(JSON.stringify(f()));
  const [started, setStarted] = createSignal(false);
  const dirty = () => !started() && JSON.stringify(f()) !== initial();
  const set = <K extends keyof JobFields>(key: K, value: JobFields[K]) => setF({ ...f(), [key]: value });
  /** A new start: a past job's kind and parameters. */
  const restart = (k: JobKind, fields: Partial<JobFields>) => {
    setKind(k);
    setF({ ...defaultFields(), ...fields });
    setInitial(JSON.stringify(f()));
  };

  // Versions in <name>.history/ are not flows to run a job on (issue 15), unless the form was given one.
  const loadable = () => loaded.flows().filter((x) => x.error === null && (!x.version_of || x.key === f().flow));
  const flow = (): FlowChoice | undefined => {
    const x = loadable().find((y) => y.key === f().flow);
    return x ? { key: x.key, path: x.path, name: x.name, domain: x.domain } : undefined;
  };
  const dirs = () => [...new Set(loaded.sessions().map((s) => s.path.split('/').slice(0, -1).join('/')).filter(Boolean))].sort();
  const domains = () => mergeDomainNames(domainNames(), dirs().map((d) => d.split('/').pop() ?? ''));

  // The redact kind's "always hash" box, kept here so switching kinds and back keeps what was typed.
  const [hashDraft, setHashDraft] = createSignal('');
  const [submitted, setSubmitted] = createSignal(false);
  const problems = () => validate(kind(), f(), flow());
  const errors = (): FieldErrors => (submitted() ? problems() : {});

  return {
    kind, setKind, f, set, restart, dirty, markStarted: () => setStarted(true),
    loadable, flow, dirs, domains, errors, hashDraft, setHashDraft,
    /** The form's own checks pass (its errors may not show yet). */
    valid: () => Object.keys(problems()).length === 0,
    /** Marks the form submitted (its errors show) and says whether it may be sent. */
    check: () => {
      setSubmitted(true);
      return Object.keys(problems()).length === 0;
    },
  };
}

export type JobFormModel = ReturnType<typeof createJobForm>;
