// The fields the job kinds share: a text box, the sessions (with the kind's default), the flow, the decider,
// the fields to hash, and the overwrite and constants switches.
import { For, Show } from 'solid-js';
import { defaultSessions, type JobFields } from '../../../lib/jobform.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Term } from '../../ui/Term.tsx';
import { Button, describedBy, Field, onEnter, Switch as Toggle } from '../../ui/ui.tsx';
import type { JobFormModel, TextFieldKey } from './createJobForm.ts';
import { flowLabel } from '../../../lib/flow-address.ts';

interface TextOptions {
  hint?: string;
  placeholder?: string;
  optional?: boolean;
  list?: string;
  testid?: string;
  mono?: boolean;
}

export function TextField(props: { model: JobFormModel; id: TextFieldKey; label: string } & TextOptions) {
  const m = props.model;
  const error = () => m.errors()[props.id];
  return (
    <Field id={`job-${props.id}`} label={props.label} hint={props.hint} error={error()} optional={props.optional}>
      <input
        id={`job-${props.id}`}
        type="text"
        class={props.mono === false ? undefined : 'mono'}
        list={props.list}
        placeholder={props.placeholder}
        data-testid={props.testid}
        value={m.f()[props.id]}
        aria-invalid={error() ? 'true' : undefined}
        aria-describedby={describedBy(`job-${props.id}`, error(), Boolean(props.hint))}
        onInput={(e) => m.set(props.id, e.currentTarget.value)}
      />
    </Field>
  );
}

export function SessionsField(props: { model: JobFormModel; hint: string }) {
  const m = props.model;
  const fallback = () => defaultSessions(m.kind(), m.f(), m.flow());
  return (
    <TextField
      model={m}
      id="sessions"
      label="Sessions"
      hint={m.kind() === 'redact' || fallback() === '' ? props.hint : `${props.hint} Empty: ${fallback()}, as the command below shows.`}
      placeholder={fallback() || 'logs/<domain>'}
      list="job-dirs"
      optional={m.kind() !== 'redact'}
    />
  );
}

export function FlowField(props: { model: JobFormModel; hint?: string }) {
  const m = props.model;
  return (
    <Field id="job-flow" label="Flow" hint={props.hint} error={m.errors().flow}>
      <select
        id="job-flow"
        data-testid="job-flow"
        value={m.f().flow}
        aria-invalid={m.errors().flow ? 'true' : undefined}
        aria-describedby={describedBy('job-flow', m.errors().flow, Boolean(props.hint))}
        onChange={(e) => m.set('flow', e.currentTarget.value)}
      >
        <option value="" selected={m.f().flow === ''}>
          Choose a flow
        </option>
        {/* selected on each option: the list arrives after the value, and a select keeps no value it lacked. */}
        <For each={m.loadable()}>
          {(x) => (
            <option value={x.key} selected={x.key === m.f().flow}>
              {`${flowLabel(x)} · ${x.domain}`}
            </option>
          )}
        </For>
      </select>
    </Field>
  );
}

/** `first`: what no choice means for this kind. */
export function DeciderField(props: { model: JobFormModel; first: string }) {
  const m = props.model;
  return (
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
      <select id="job-decider" aria-describedby="job-decider-hint" value={m.f().decider} onChange={(e) => m.set('decider', e.currentTarget.value as JobFields['decider'])}>
        <option value="">{props.first}</option>
        <option value="reach">reach</option>
        <option value="habit">habit</option>
        <option value="arbiter">arbiter (asks the replay cache)</option>
      </select>
    </Field>
  );
}

export function HashFieldsField(props: { model: JobFormModel }) {
  const m = props.model;
  const addHash = () => {
    const parts = m.hashDraft().split(',').map((s) => s.trim()).filter(Boolean);
    if (parts.length === 0) return;
    m.set('hash_fields', [...new Set([...m.f().hash_fields, ...parts])]);
    m.setHashDraft('');
  };
  return (
    <Field id="job-hash" label="Always hash these fields" optional hint="JSON keys whose values identify people, such as user_id or email.">
      <div class="input-with-button">
        <input
          id="job-hash"
          type="text"
          class="mono"
          placeholder="user_id"
          aria-describedby="job-hash-hint"
          value={m.hashDraft()}
          onInput={(e) => m.setHashDraft(e.currentTarget.value)}
          onKeyDown={onEnter(addHash)}
          style={{ 'padding-left': '10px' }}
        />
        <Button size="sm" icon="plus" onClick={addHash}>
          Add
        </Button>
      </div>
      <Show when={m.f().hash_fields.length > 0}>
        <div class="filters" style={{ gap: '6px' }}>
          <For each={m.f().hash_fields}>
            {(h) => (
              <span class="badge">
                <span class="mono">{h}</span>
                <button type="button" class="btn btn-ghost btn-sm btn-square" style={{ height: '18px', width: '18px' }} aria-label={`Remove ${h}`} onClick={() => m.set('hash_fields', m.f().hash_fields.filter((x) => x !== h))}>
                  <Icon name="x" size={12} />
                </button>
              </span>
            )}
          </For>
        </div>
      </Show>
    </Field>
  );
}

export function OverwriteToggle(props: { model: JobFormModel }) {
  const m = props.model;
  return <Toggle id="job-overwrite" label="Replace an existing flow" hint="Without it, the job refuses to write over a flow; with it, the old flow goes to the trash first." checked={m.f().overwrite} onChange={(x) => m.set('overwrite', x)} />;
}

export function ConstantsToggle(props: { model: JobFormModel }) {
  const m = props.model;
  return (
    <Toggle id="job-constants" label="Constants (--constants)" hint="Also pass arguments the agent always passed with one value, such as a page size." checked={m.f().constants} onChange={(x) => m.set('constants', x)} />
  );
}
