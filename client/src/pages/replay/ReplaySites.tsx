// The run's counts per flow site: which sites of the server's flow the replayed calls feed, by their recorded
// answers and by the live ones (a call whose live answer failed where the recorded one did not moves to
// `tool (error)`), and the flow's sites no call fed.
import { For, Show } from 'solid-js';
import type { ReplayRun } from '../../../../shared/replay.ts';
import { Card } from '../../components/ui/ui.tsx';
import { countsBySite, sitesNotFed } from '../../lib/replay-sites.ts';

export default function ReplaySites(props: { run: ReplayRun }) {
  const rows = () => countsBySite(props.run);
  const unfed = () => sitesNotFed(props.run);
  return (
    <Card title="By flow site" testid="replay-sites">
      <Show when={props.run.flow_sites === null}>
        <p class="muted">The server has no flow that loads: the sites are those its calls would feed.</p>
      </Show>
      <div class="table-wrap">
        <table class="table" data-testid="replay-by-site">
          <thead>
            <tr><th>Site</th><th>In the flow</th><th>Recorded answers</th><th>Live answers</th></tr>
          </thead>
          <tbody>
            <For each={rows()}>
              {(row) => (
                <tr data-site={row.site}>
                  <td><code>{row.site}</code></td>
                  <td>{row.in_flow ? 'yes' : 'no'}</td>
                  <td>{row.recorded}</td>
                  <td>{row.live}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
      <Show when={unfed().length > 0}>
        <p class="muted" data-testid="replay-sites-unfed">
          No replayed call fed: <For each={unfed()}>{(s) => <code>{s} </code>}</For>
        </p>
      </Show>
    </Card>
  );
}
