// "Replay against the live server": the rule said before anything runs (only read-only tools are called),
// then a run of the domain's newest recorded sessions, opened on its own page.
import { useNavigate } from '@solidjs/router';
import { startReplay } from '../../api/endpoints.ts';
import { createAction } from '../../data/createAction.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Button, Card, Notice } from '../ui/ui.tsx';

export default function ReplayStart(props: { server: string; caption: string }) {
  const navigate = useNavigate();
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
