// The Overview's first-run steps, while something is missing: add a server, use the agent through it,
// learn a flow; the first step not done is the current one, with its button.
import { For, Show } from 'solid-js';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Icon } from '../ui/Icon.tsx';
import { Button } from '../ui/ui.tsx';

export function FirstRun(props: { servers: number; sessions: number; flows: number }) {
  const steps = () => [
    {
      title: 'Add a server',
      body: 'Register the MCP server your agent uses. The console prints the configuration for your host, with engine-proxy in front.',
      done: props.servers > 0,
      action: () => (
        <Button size="sm" variant="primary" to="/servers/new" disabled={readOnly()} reason={READ_ONLY_REASON}>
          Add a server
        </Button>
      ),
    },
    {
      title: 'Use your agent through it',
      body: 'Work as usual. The proxy records each session, and they appear here as they are written.',
      done: props.sessions > 0,
      action: () => (
        <Button size="sm" to="/servers">
          Show the host configuration
        </Button>
      ),
    },
    {
      title: 'Learn a flow',
      body: 'From the recorded sessions, with no key: which reads follow which calls, and where their arguments come from.',
      done: props.flows > 0,
      action: () => (
        <Button size="sm" variant="primary" to="/jobs/new?kind=learn" disabled={readOnly()} reason={READ_ONLY_REASON}>
          Learn a flow
        </Button>
      ),
    },
  ];
  const current = () => steps().findIndex((s) => !s.done);
  return (
    <section class="card first-run" aria-labelledby="first-run-title">
      <div class="card-head">
        <div>
          <h2 id="first-run-title">
            <Icon name="sparkles" /> Get started
          </h2>
          <p class="card-caption">Three steps from a server to a flow that reads ahead of your agent.</p>
        </div>
      </div>
      <div class="card-body">
        <ol>
          <For each={steps()}>
            {(s, i) => (
              <li class={s.done ? 'done' : i() === current() ? 'current' : undefined}>
                <span class="step-title">
                  <span class="step-no" aria-hidden="true">
                    {s.done ? <Icon name="check" size={13} /> : i() + 1}
                  </span>
                  {s.title}
                  <Show when={s.done}>
                    <span class="sr-only">(done)</span>
                  </Show>
                </span>
                <span class="step-body">{s.body}</span>
                <Show when={i() === current()}>
                  <div>{s.action()}</div>
                </Show>
              </li>
            )}
          </For>
        </ol>
      </div>
    </section>
  );
}
