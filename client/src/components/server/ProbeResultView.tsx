// The answer of a connection test: who answered and in what time, or why it failed with the server's last
// stderr lines; its instructions (folded away when long), the flow's warnings and the tools with their kinds.
import { For, Show } from 'solid-js';
import type { ProbeResult } from '../../../../shared/servers.ts';
import { formatDuration } from '../../lib/format.ts';
import { Notice, RichText } from '../ui/ui.tsx';
import ToolsTable from './ToolsTable.tsx';

/** Instructions longer than this fold away under a disclosure. */
const SHORT = 160;

/** "2 read, 1 write, 0 neither". */
function kindsText(r: ProbeResult): string {
  const writes = r.tools.filter((t) => t.kind === 'write').length;
  const reads = r.tools.filter((t) => t.kind === 'read').length;
  return `${reads} read, ${writes} write, ${r.tools.length - reads - writes} neither`;
}

export function ProbeResultView(props: { result: ProbeResult }) {
  const r = () => props.result;
  return (
    <>
      <Show
        when={r().ok}
        fallback={
          <>
            <Notice tone="danger" testid="probe-failed">
              Could not connect ({formatDuration(r().ms)}): {r().error}
            </Notice>
            <Show when={r().stderr_tail}>
              {(tail) => (
                <details class="probe-stderr" open>
                  <summary>What the server wrote to stderr, its last lines</summary>
                  <pre class="wrap" tabindex="0" data-testid="probe-stderr">
                    {tail()}
                  </pre>
                </details>
              )}
            </Show>
          </>
        }
      >
        <Notice tone="accent" testid="probe-ok">
          Connected in {formatDuration(r().ms)}:{' '}
          <strong>
            {r().server_name ?? 'a server with no name'} {r().server_version ?? ''}
          </strong>
          , protocol <code>{r().protocol_version ?? 'unknown'}</code>, {r().tools.length} {r().tools.length === 1 ? 'tool' : 'tools'} (
          {kindsText(r())}).
          <Show when={(r().instructions ?? '').length > 0 && (r().instructions ?? '').length <= SHORT}>
            <span class="probe-instructions"> Its instructions: “{r().instructions}”</span>
          </Show>
        </Notice>
        <Show when={(r().instructions ?? '').length > SHORT}>
          <details class="probe-instructions-long">
            <summary>Its instructions ({r().instructions!.length.toLocaleString('en-US')} characters)</summary>
            <pre class="wrap" tabindex="0">{r().instructions}</pre>
          </details>
        </Show>
      </Show>
      <For each={r().flow_warnings}>
        {(w) => (
          <Notice tone="warn" role="status">
            <RichText text={w} />
          </Notice>
        )}
      </For>
      <Show when={r().ok && r().tools.length > 0}>
        <ToolsTable tools={r().tools} />
      </Show>
    </>
  );
}
