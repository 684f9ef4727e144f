// The sessions table (full on the Sessions page, compact on the Overview) and, at phone widths, the same
// rows as a list of cards. The session id is the link; the row is clickable too. On the Sessions page the
// column heads are buttons that sort (the server sorts: GET /api/sessions?sort=&order=).
import { A } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { SessionSort, SessionSummary, SortOrder } from '../../../../shared/sessions.ts';
import { formatCount, formatDuration, plural } from '../../lib/format.ts';
import { Icon } from '../ui/Icon.tsx';
import { DataTable, type Column } from '../ui/Table.tsx';
import { ModeBadge, RelTime } from '../ui/ui.tsx';
import './compare.css';

const href = (s: SessionSummary) => `/sessions/${encodeURIComponent(s.key)}`;

const COLUMNS = {
  session: {
    head: 'Session',
    class: 'idcell',
    cell: (s) => (
      <>
        <A href={href(s)}>{s.session_id}</A>
        <Show when={s.surprised}>
          {' '}
          <span class="badge warn" data-testid="session-surprised" title="The flow’s surprise gate handed back in this session">
            <Icon name="zap" size={12} /> surprised
          </span>
        </Show>
      </>
    ),
  },
  domain: { head: 'Domain', class: 'mono', cell: (s) => s.domain ?? <span class="subtle">none</span> },
  agent: { head: 'Agent', class: 'ellipsis', title: (s) => s.agent ?? undefined, cell: (s) => s.agent ?? '—' },
  mode: { head: 'Mode', cell: (s) => <ModeBadge mode={s.mode} /> },
  calls: { head: 'Calls', headClass: 'n', headTitle: "The agent's own tool calls", class: 'n', cell: (s) => formatCount(s.tool_calls) },
  turns: { head: 'Turns', headClass: 'n', headTitle: 'LLM turns, inferred from timing', class: 'n', cell: (s) => formatCount(s.llm_turns) },
  lookups: {
    head: 'Lookups',
    headClass: 'n',
    headTitle: 'Lookups the flow made (served), or would have made (shadow)',
    class: 'n',
    cell: (s) => (
      <Show when={s.mode === 'shadow'} fallback={<span class={s.flow_lookups === 0 ? 'subtle' : undefined}>{formatCount(s.flow_lookups)}</span>}>
        <span class="subtle" title={`${s.shadow_lookups} lookups decided in shadow, none made`}>
          {formatCount(s.shadow_lookups)} in shadow
        </span>
      </Show>
    ),
  },
  errors: {
    head: 'Errors',
    headClass: 'n',
    headTitle: 'Failed calls',
    class: 'n',
    cell: (s) => (
      <Show when={s.errors > 0} fallback={<span class="subtle">0</span>}>
        <span class="danger-text">
          <Icon name="warn" size={13} /> {formatCount(s.errors)}
        </span>
      </Show>
    ),
  },
  duration: { head: 'Duration', headClass: 'n', class: 'n', cell: (s) => formatDuration(s.duration_ms) },
  started: { head: 'Started', cell: (s) => <RelTime ms={s.started_unix_ms} /> },
} satisfies Record<string, Column<SessionSummary>>;

/** The first order of a column: words A to Z; numbers and the start, largest or newest first. */
export function sortOrderFor(key: SessionSort): SortOrder {
  return key === 'session' || key === 'domain' || key === 'agent' || key === 'mode' ? 'asc' : 'desc';
}

interface SortState {
  key: SessionSort;
  order: SortOrder;
  onSort: (key: SessionSort) => void;
}

function sortable(key: SessionSort, c: Column<SessionSummary>, sort: SortState): Column<SessionSummary> {
  const on = sort.key === key;
  const state = on ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return {
    ...c,
    label: typeof c.head === 'string' ? c.head : undefined,
    headSort: state,
    head: (
      <button type="button" class={`sort-btn${on ? ' on' : ''}`} data-testid={`sort-${key}`} onClick={() => sort.onSort(key)}>
        {c.head}
        <Icon name={on ? (sort.order === 'asc' ? 'chevron-up' : 'chevron-down') : 'chevrons-up-down'} size={12} />
      </button>
    ),
  };
}

/** Ticking sessions, to compare two of them or act on all of them (the Sessions page). */
interface SessionTicks {
  ticked: () => readonly string[];
  onTick: (key: string, on: boolean) => void;
}

/** The tick box of one session; a click on it neither opens the row nor follows the card's link. */
function Tick(props: { s: SessionSummary; ticks: SessionTicks }) {
  return (
    <input
      type="checkbox"
      class="session-tick"
      data-testid="session-tick"
      aria-label={`Tick session ${props.s.session_id}`}
      checked={props.ticks.ticked().includes(props.s.key)}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => props.ticks.onTick(props.s.key, e.currentTarget.checked)}
    />
  );
}

export function SessionsTable(props: { items: SessionSummary[]; compact?: boolean; hideDomain?: boolean; sort?: SortState; ticks?: SessionTicks }) {
  const tickColumn = (): Column<SessionSummary>[] =>
    props.ticks ? [{ head: <span class="sr-only">Tick</span>, label: 'Tick', class: 'tickcell', cell: (s) => <Tick s={s} ticks={props.ticks!} /> }] : [];
  const columns = () => [
    ...tickColumn(),
    ...(['session', 'domain', 'agent', 'mode', 'calls', 'turns', 'lookups', 'errors', 'duration', 'started'] as const)
      .filter((k) => !(k === 'domain' && props.hideDomain) && !(props.compact && (k === 'agent' || k === 'turns' || k === 'errors' || k === 'duration')))
      .map((k) => (props.sort ? sortable(k, COLUMNS[k], props.sort) : COLUMNS[k])),
  ];
  return (
    <>
      <DataTable wrapClass={props.sort ? 'session-table sticky-head' : 'session-table'} rows={props.items} rowClass="clickable" rowHref={href} columns={columns()} />
      <ul class={props.ticks ? 'session-cards tickable' : 'session-cards'}>
        <For each={props.items}>
          {(s) => (
            <li>
              <Show when={props.ticks}>
                <Tick s={s} ticks={props.ticks!} />
              </Show>
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
