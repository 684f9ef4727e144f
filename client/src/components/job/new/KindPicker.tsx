// "What to run": a radio card per job kind, with a line on what it does (and, for redact, the salt it needs).
import { For, Show } from 'solid-js';
import type { JobKind } from '../../../../../shared/jobs.ts';
import { meta } from '../../../stores/auth.ts';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { Card } from '../../ui/ui.tsx';

export const KINDS: { kind: JobKind; name: string; line: string; icon: IconName }[] = [
  { kind: 'learn', name: 'Learn', line: 'Learn a flow from recorded sessions.', icon: 'sparkles' },
  { kind: 'promote', name: 'Promote', line: 'Keep a flow to the sites where its lookups were the agent’s own.', icon: 'badge' },
  { kind: 'audit', name: 'Audit', line: 'Score a flow against sessions it did not learn from.', icon: 'file-search' },
  { kind: 'stage', name: 'Stage', line: 'Learn a flow’s next version beside it, and compare the two.', icon: 'branch' },
  { kind: 'drift', name: 'Drift', line: 'Check whether the agent changed under a flow.', icon: 'zap' },
  { kind: 'redact', name: 'Redact', line: 'Write a pseudonymized copy of sessions, to share.', icon: 'eraser' },
  { kind: 'doctor', name: 'Doctor', line: 'Check the installation.', icon: 'stethoscope' },
];

/** The kinds this console offers: drift only where the engine CLI has it (GET /api/meta's job_kinds). */
export function offeredKinds() {
  const kinds = meta()?.job_kinds;
  return kinds && kinds.length > 0 ? KINDS.filter((x) => kinds.includes(x.kind)) : KINDS.filter((x) => x.kind !== 'drift');
}

export function KindPicker(props: { kind: JobKind; onKind: (kind: JobKind) => void }) {
  return (
    <Card title="What to run">
      <div class="radio-cards" role="radiogroup" aria-label="What to run">
        <For each={offeredKinds()}>
          {(x) => (
            <label class="radio-card">
              <input type="radio" name="kind" value={x.kind} data-testid={`kind-${x.kind}`} checked={props.kind === x.kind} onChange={() => props.onKind(x.kind)} />
              <Icon name={x.icon} size={18} />
              <span>
                <strong>{x.name}</strong>
                <span class="line">{x.line}</span>{' '}
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
  );
}
