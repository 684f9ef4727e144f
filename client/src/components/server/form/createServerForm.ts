// The server form's state: the values as typed, which fields were touched, the checks (shown after a field
// loses focus or after the first submit), the leave guard's "changed" and what the values imply (the
// command's words, the credential advice, the flow choices, the preview). The sections read and write it.
import { createEffect, createMemo, createSignal } from 'solid-js';
import { createStore } from 'solid-js/store';
import {
  commandText, credentialAdvice, flowChoices, flowDomainWarning, hasErrors, previewText, splitShell, validateForm,
  type ServerFieldErrors, type FlowChoiceInput, type FormState,
} from '../../../lib/server-form.ts';

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

/** The fields typed into a text box as they are. */
export type TextField =
  | 'name' | 'description' | 'command' | 'url' | 'flow' | 'threshold' | 'recordDir' | 'surpriseNats' | 'flowTools' | 'judgeContext' | 'retainDays'
  | 'listenAddr' | 'listenTokenFile';

/** The checks' keys that hold one message. */
export type CheckedField = Exclude<keyof ServerFieldErrors, 'headerRows'>;

export function createServerForm(props: ServerFormProps) {
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

  // `taken` holds only the other servers, so a name is refused when another server has it, new or renamed.
  const errors = createMemo<ServerFieldErrors>(() => validateForm(form, props.taken, true));
  const seen = (field: string) => submitted() || touched().has(field);
  const shown = (field: CheckedField) => (seen(field) ? errors()[field] : undefined) ?? null;
  const headerError = (row: number) => (seen(`header-${row}`) ? (errors().headerRows?.[row] ?? null) : null);
  const touch = (field: string) => setTouched((t) => new Set(t).add(field));
  const input = (field: TextField) => (e: InputEvent & { currentTarget: HTMLInputElement }) => setForm(field, e.currentTarget.value);

  const words = createMemo(() => {
    const split = splitShell(form.command);
    return split.ok ? split.words : [];
  });
  const advice = createMemo(() => (form.kind === 'stdio' ? credentialAdvice(words(), props.dataDir) : null));
  const useCommand = (command: readonly string[], variable: string) => {
    setForm('command', commandText(command));
    if (!form.env.includes(variable)) setForm('env', (e) => [...e, variable]);
  };
  const choices = createMemo(() => flowChoices(props.flows, form.name));
  // Kept here, not in the flow field, so hiding the field (record mode) does not forget "Another path…".
  const [otherPath, setOtherPath] = createSignal(form.flow !== '' && !flowChoices(props.flows, form.name).some((c) => c.value === form.flow));
  const flowWarning = createMemo(() =>
    form.mode === 'record' ? null : flowDomainWarning(props.flows, form.flow, form.name, [props.dataDirShown, props.dataDir]),
  );
  const preview = createMemo(() => previewText(form, props.dataDirShown));

  /** Sends a copy of the values, or focuses the first invalid control and sends nothing. */
  const submit = (e: SubmitEvent, formEl: HTMLFormElement) => {
    e.preventDefault();
    setSubmitted(true);
    if (hasErrors(errors())) {
      queueMicrotask(() => formEl.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setSent(true);
    props.onSubmit(structuredClone({ ...form, env: [...form.env], headers: form.headers.map((h) => ({ ...h })) }));
  };

  return { props, form, setForm, dirty, shown, headerError, touch, input, words, advice, useCommand, choices, otherPath, setOtherPath, flowWarning, preview, submit };
}

export type ServerFormModel = ReturnType<typeof createServerForm>;
