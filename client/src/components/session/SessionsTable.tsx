// The sessions table (full on the Sessions page, compact on the Overview) and, at phone widths, the same
// rows as a list of cards. The session id is the link; the row is clickable too.
import { A, useNavigate } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { SessionSummary } from '../../../../shared/sessions.ts';
import { formatCount, formatDuration, plural } from '../../lib/format.ts';
import { Icon } from '../ui/Icon.tsx';
import { ModeBadge, RelTime } from '../ui/ui.tsx';

const href = (s: SessionSummary) => `/sessions/${encodeURIComponent(s.key)}`;

export function SessionsTable(props: { items: SessionSummary[]; compact?: boolean; hideDomain?: boolean }) {
  const navigate = useNavigate();
  const rowClick = (e: MouseEvent, s: SessionSummary) => {
    if ((e.target as HTMLElement).closest('a, button')) return;
    navigate(href(s));
  };
  return (
    <>
      <div class="table-wrap session-table">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <Show when={!props.hideDomain}>
                <th scope="col">Domain</th>
              </Show>
              <Show when={!props.compact}>
                <th scope="col">Agent</th>
              </Show>
              <th scope="col">Mode</th>
              <th scope="col" class="n" title="The agent's own tool calls">
                Calls
              </th>
              <Show when={!props.compact}>
                <th scope="col" class="n" title="LLM turns, inferred from timing">
                  Turns
                </th>
              </Show>
              <th scope="col" class="n" title="Lookups the flow made (served), or would have made (shadow)">
                Lookups
              </th>
              <Show when={!props.compact}>
                <th scope="col" class="n" title="Failed calls">
                  Errors
                </th>
                <th scope="col" class="n">
                  Duration
                </th>
              </Show>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.items}>
              {(s) => (
                <tr class="clickable" onClick={(e) => rowClick(e, s)}>
                  <td class="idcell">
                    <A href={href(s)}>{s.session_id}</A>
                    <Show when={s.surprised}>
                      {' '}
                      <span class="badge warn" data-testid="session-surprised" title="The flow’s surprise gate handed back in this session">
                        <Icon name="zap" size={12} /> surprised
                      </span>
                    </Show>
                  </td>
                  <Show when={!props.hideDomain}>
                    <td class="mono">{s.domain ?? <span class="subtle">none</span>}</td>
                  </Show>
                  <Show when={!props.compact}>
                    <td class="ellipsis" title={s.agent ?? undefined}>
                      {s.agent ?? '—'}
                    </td>
                  </Show>
                  <td>
                    <ModeBadge mode={s.mode} />
                  </td>
                  <td class="n">{formatCount(s.tool_calls)}</td>
                  <Show when={!props.compact}>
                    <td class="n">{formatCount(s.llm_turns)}</td>
                  </Show>
                  <td class="n">
                    <Show
                      when={s.mode === 'shadow'}
                      fallback={<span class={s.flow_lookups === 0 ? 'subtle' : undefined}>{formatCount(s.flow_lookups)}</span>}
                    >
                      <span class="subtle" title={`${s.shadow_lookups} lookups decided in shadow, none made`}>
                        {formatCount(s.shadow_lookups)} in shadow
                      </span>
                    </Show>
                  </td>
                  <Show when={!props.compact}>
                    <td class="n">
                      <Show when={s.errors > 0} fallback={<span class="subtle">0</span>}>
                        <span class="danger-text">
                          <Icon name="warn" size={13} /> {formatCount(s.errors)}
                        </span>
                      </Show>
                    </td>
                    <td class="n">{formatDuration(s.duration_ms)}</td>
                  </Show>
                  <td>
                    <RelTime ms={s.started_unix_ms} />
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
      <ul class="session-cards">
        <For each={props.items}>
          {(s) => (
            <li>
              <A href={href(s)}>
                <span class="line1">
                  <span class="idcell">{s.session_id}</span>
                  <ModeBadge mode={s.mode} />
                </span>
                <span class="line2">
                  <span class="mono">{s.domain ?? 'none'}</span>
                  <span>{plural(s.tool_calls, 'call')}</span>
                  <Show when={s.mode === 'served'}>
                    <span>{plural(s.flow_lookups, 'lookup')}</span>
                  </Show>
                  <Show when={s.mode === 'shadow'}>
                    <span>{formatCount(s.shadow_lookups)} in shadow</span>
                  </Show>
                  <Show when={s.errors > 0}>
                    <span class="danger-text">{plural(s.errors, 'error')}</span>
                  </Show>
                  <RelTime ms={s.started_unix_ms} />
                </span>
              </A>
            </li>
          )}
        </For>
      </ul>
    </>
  );
}
