// What the session logs hold and what the console does and never does with them.
import { Card } from '../ui/ui.tsx';

export function PrivacyCard() {
  return (
    <Card title="Privacy">
      <div class="stack" style={{ gap: '10px' }}>
        <p>
          Session logs hold every tool call and result verbatim, and what the customer said when the host passes the conversation. Treat them like the
          data the tools touch.
        </p>
        <ul class="bullets">
          <li>The console reads the data dir and serves it to this browser only. It sends nothing anywhere else, unless it was started with an OpenTelemetry endpoint (below), which gets each session’s calls, never their arguments or results.</li>
          <li>
            The registry, <code>servers.json</code>, holds environment variable names and header names, never their values.
          </li>
          <li>It never reads or shows a variable’s value, never follows a link out of the data dir, and moves what you delete to its trash.</li>
          <li>To share sessions, redact them first: a job writes a pseudonymized copy that learns the same flow.</li>
        </ul>
        <p class="muted">
          What each file holds, and what is sent where: <code>docs/privacy.md</code> in the engine’s repository.
        </p>
      </div>
    </Card>
  );
}
