// "Replay against the live server": the rule said before anything runs (only read-only tools are called),
// then a run of the domain's newest recorded sessions, opened on its own page.
import { useNavigate } from '@solidjs/router';
import { For, Show } from 'solid-js';
import { getReplayPlan, startReplay } from '../../api/endpoints.ts';
import { createAction } from '../../data/createAction.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Button, Card, Notice } from '../ui/ui.tsx';

export default function ReplayStart(props: { server: string; caption: string }) {
  const navigate = useNavigate();
  const plan = createApiResource(() => props.server, (name, signal) => getReplayPlan(name, { signal }), { topics: ['sessions'] });
  const start = createAction(() => startReplay(props.server, {}), {
    after: (run) => navigate(`/replays/${encodeURIComponent(run.id)}`),
  });
  return (
    <Card title="Replay against the live server" caption={props.caption} testid="replay-start">
      <p data-testid="replay-rule">
        The recorded <code>tools/call</code>s of the newest sessions of <strong>{props.server}</strong> are sent again to the server
        as the registry starts it, and each answer is compared with the recorded one. Never a write: a call is sent only when the
        live <code>tools/list</code> marks its tool <code>readOnlyHint: true</code> and the recording did not mark it as writing;
        every other call is listed as skipped and never sent, and a tool the server no longer lists is listed as gone.
      </p>
      <Show when={plan.data()}>
        {(p) => (
          <Show when={p().tools.length > 0} fallback={<p class="muted">No recorded tools/call in this server's sessions yet.</p>}>
            <p>
              From its {p().sessions.length} newest sessions, these tools would be called if the live server marks them read-only:
            </p>
            <ul data-testid="replay-plan">
              <For each={p().tools}>
                {(t) => (
                  <li>
                    <code>{t.name}</code> ({t.calls} {t.calls === 1 ? 'call' : 'calls'}){t.recorded_write ? ': marked as writing in the recording, never called' : ''}
                  </li>
                )}
              </For>
            </ul>
          </Show>
        )}
      </Show>
      {start.error() && (
        <Notice tone="danger" role="alert" testid="replay-start-error">
          {start.error()}
        </Notice>
      )}
      <Button
        icon="play"
        testid="replay-start-button"
        loading={start.busy()}
        disabled={readOnly()}
        reason={readOnly() ? READ_ONLY_REASON : undefined}
        onClick={() => void start.run()}
      >
        Replay against the live server
      </Button>
    </Card>
  );
}
