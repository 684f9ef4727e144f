// The session page's other views: the decisions table grouped by the call they followed, the raw log
// (its events in short, or the JSON lines themselves) and the tools the server listed.
import { A } from '@solidjs/router';
import { createSignal, For, type JSX, Show } from 'solid-js';
import type { FlowDecision, FlowRun, SessionDetail, ToolInfo } from '../../../../shared/sessions.ts';
import { getSessionRaw, sessionRawUrl } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { formatOffset, formatProb } from '../../lib/format.ts';
import { compact, eventLines, jsonLines, pretty } from '../../lib/json.ts';
import { decisionValue } from '../../lib/timeline.ts';
import { RAW_WHOLE_MAX_BYTES } from '../../../../shared/limits.ts';
import { PagedLines } from './PagedLines.tsx';
import { JsonTree } from '../ui/JsonTree.tsx';
import { Cells, DataTable, TableHead, type Column } from '../ui/Table.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Term } from '../ui/Term.tsx';
import { Button, CopyButton, Empty, ErrorState, KindBadge, ProbBar, Segmented, Skeleton } from '../ui/ui.tsx';

export function DecisionsTable(props: { detail: { calls: { id: string; tool: string }[]; decisions: FlowDecision[] }; threshold: number; siteHref?: (site: string) => string }) {
  const calls = () => new Map(props.detail.calls.map((c) => [c.id, c]));
  const groups = () => {
    const out: { after: string; rows: FlowDecision[] }[] = [];
    for (const d of props.detail.decisions) {
      const last = out[out.length - 1];
      if (last && last.after === d.after) last.rows.push(d);
      else out.push({ after: d.after, rows: [d] });
    }
    return out;
  };
  const columns: Column<FlowDecision>[] = [
    {
      head: 'Site',
      cell: (d) => (
        <>
          <code>{d.address}</code> after{' '}
          <Show when={props.siteHref} fallback={<code>{d.site}</code>}>
            <A href={props.siteHref!(d.site)} title="This site on the flow page, with the sessions where the flow acted here">
              <code>{d.site}</code>
            </A>
          </Show>
        </>
      ),
    },
    {
      head: 'Decision',
      cell: (d) => (
        <>
          <Show when={d.action === 'lookup'} fallback={<span class="badge">hands back</span>}>
            <span class={d.shadow ? 'badge dashed' : 'badge accent'}>{d.shadow ? 'would look up' : 'looks up'}</span> <code>{d.tool ?? ''}</code>
          </Show>
          <Show when={d.reason}>
            <div class="subtle" style={{ 'font-size': '12px' }}>
              {d.reason}
            </div>
          </Show>
        </>
      ),
    },
    {
      head: 'Arguments',
      class: 'mono',
      style: SMALL,
      title: (d) => (d.arguments === null ? undefined : compact(d.arguments, 4000)),
      cell: (d) => (d.arguments === null ? '—' : compact(d.arguments, 200)),
    },
    { head: 'p', headClass: 'n', class: 'n', cell: (d) => formatProb(d.prob) },
    { head: <Term word="binding">Binding</Term>, label: 'Binding', headClass: 'n', class: 'n', cell: (d) => formatProb(d.binding) },
    {
      head: 'Against the threshold',
      cell: (d) => (
        <Show when={d.prob !== null} fallback={<span class="subtle">no lookup weighed</span>}>
          <ProbBar value={decisionValue(d)} threshold={props.threshold} width={72} acts={d.action === 'lookup'} />
        </Show>
      ),
    },
  ];
  return (
    <Show
      when={props.detail.decisions.length > 0}
      fallback={
        <Empty icon="scale" title="No flow ran in this session">
          The proxy recorded it without a flow. Serve a flow, or run one in shadow, and its decisions show here.
        </Empty>
      }
    >
      <div class="table-wrap">
        <table class="table stacking dt">
          <TableHead columns={columns} />
          <For each={groups()}>
            {(g) => (
              <tbody>
                <tr class="group">
                  <th colspan="6" scope="rowgroup">
                    After the agent’s call <code>{calls().get(g.after)?.tool ?? '?'}</code> <code>#{g.after}</code>
                  </th>
                </tr>
                <For each={g.rows}>
                  {(d) => (
                    <tr class="decision-row">
                      <Cells columns={columns} row={d} stacking />
                    </tr>
                  )}
                </For>
              </tbody>
            )}
          </For>
        </table>
      </div>
    </Show>
  );
}

const SMALL: JSX.CSSProperties = { 'font-size': '12px' };
const SMALL_WRAP: JSX.CSSProperties = { 'font-size': '12px', 'overflow-wrap': 'anywhere' };

const FROM_CLASS: Record<string, string> = { client: 'badge', server: 'badge', proxy: 'badge accent', context: 'badge dashed', header: 'badge' };

export function RawLog(props: { detail: Pick<SessionDetail, 'events'>; sessionKey: string; fileName: string; sizeBytes?: number }) {
  const [view, setView] = createSignal<'events' | 'lines'>('events');
  // A big log's lines come a page at a time (PagedLines), never the whole file.
  const big = () => (props.sizeBytes ?? 0) > RAW_WHOLE_MAX_BYTES;
  // Events whose whole line is shown (by index): the log is fetched the first time one opens.
  const [openEvents, setOpenEvents] = createSignal<Set<number>>(new Set());
  const raw = createApiResource(
    () => ((view() === 'lines' && !big()) || openEvents().size > 0 ? props.sessionKey : false),
    (key, signal) => getSessionRaw(key, { signal }),
  );
  const lines = () => jsonLines(raw.data() ?? '');
  const matched = () => eventLines(props.detail.events, lines());
  const toggleEvent = (i: number) => {
    const s = new Set(openEvents());
    if (s.has(i)) s.delete(i);
    else s.add(i);
    setOpenEvents(s);
  };
  const eventColumns: Column<SessionDetail['events'][number]>[] = [
    { head: 'Time', class: 'mono num nowrap', cell: (e) => formatOffset(e.t_ms) },
    { head: 'From', cell: (e) => <span class={FROM_CLASS[e.from] ?? 'badge'}>{e.from}</span> },
    {
      head: 'Kind',
      cell: (e) => (
        <>
          {e.kind}
          <Show when={e.method}>
            {' '}
            <span class="mono">{e.method}</span>
          </Show>
        </>
      ),
    },
    { head: 'Id', class: 'mono nowrap', cell: (e) => e.id ?? '' },
    { head: 'Summary', class: 'mono', style: SMALL_WRAP, cell: (e) => e.summary },
  ];
  const [all, setAll] = createSignal(false);
  const [open, setOpen] = createSignal<Set<number>>(new Set());
  const toggle = (n: number) => {
    const s = new Set(open());
    if (s.has(n)) s.delete(n);
    else s.add(n);
    setOpen(s);
  };
  const fromOf = (l: { value: unknown; ok: boolean }) => {
    if (!l.ok || l.value === null || typeof l.value !== 'object') return '';
    const v = l.value as Record<string, unknown>;
    if ('engine_mcp_log' in v) return 'header';
    return typeof v.from === 'string' ? v.from : '';
  };
  return (
    <div class="stack" style={{ gap: '12px' }}>
      <div class="timeline-bar">
        <Segmented
          label="View"
          value={view()}
          onChange={setView}
          options={[
            { value: 'events', label: `Events (${props.detail.events.length})` },
            { value: 'lines', label: 'JSON lines' },
          ]}
        />
        <div class="card-actions">
          <Show when={view() === 'lines' && raw.data() !== undefined}>
            <CopyButton text={() => raw.data() ?? ''} what="Log" label="Copy" />
          </Show>
          <Button size="sm" icon="download" href={sessionRawUrl(props.sessionKey)} download={props.fileName}>
            Download
          </Button>
        </div>
      </div>
      <Show
        when={view() === 'lines'}
        fallback={
          <div class="table-wrap card">
            {/* Each row opens to the whole line it came from: the summary is cut at 200 characters. */}
            <table class="table raw-events" data-testid="raw-events">
              <TableHead columns={[{ head: <span class="sr-only">Open</span> }, ...eventColumns]} />
              <tbody>
                <For each={props.detail.events}>
                  {(e, i) => (
                    <>
                      <tr class="clickable" data-testid={`raw-event-${i()}`} onClick={(ev) => !(ev.target as HTMLElement).closest('button, a') && toggleEvent(i())}>
                        <td class="nowrap">
                          <button
                            type="button"
                            class="btn btn-ghost btn-sm btn-square"
                            aria-expanded={openEvents().has(i())}
                            aria-label={`${openEvents().has(i()) ? 'Hide' : 'Show'} the whole line of event ${i() + 1}`}
                            data-testid={`raw-event-toggle-${i()}`}
                            onClick={() => toggleEvent(i())}
                          >
                            <Icon name={openEvents().has(i()) ? 'chevron-down' : 'chevron-right'} size={14} />
                          </button>
                        </td>
                        <Cells columns={eventColumns} row={e} />
                      </tr>
                      <Show when={openEvents().has(i())}>
                        <tr class="raw-event-open">
                          <td colSpan={eventColumns.length + 1}>
                            <Show when={raw.data() !== undefined} fallback={<Skeleton lines={2} />}>
                              <Show when={matched()[i()]} fallback={<p class="muted">No line of the log matches this event.</p>}>
                                {(l) => (
                                  <div class="raw-event-line">
                                    <span class="subtle">Line {l().n}</span>
                                    <pre class="mono" tabindex="0" aria-label={`Line ${l().n} of the log`} data-testid={`raw-event-line-${i()}`}>{pretty(l().value)}</pre>
                                  </div>
                                )}
                              </Show>
                            </Show>
                          </td>
                        </tr>
                      </Show>
                    </>
                  )}
                </For>
              </tbody>
            </table>
          </div>
        }
      >
        <Show when={!big()} fallback={<PagedLines sessionKey={props.sessionKey} />}>
        <Show when={!raw.error()} fallback={<ErrorState error={raw.error()!} retry={raw.refetch} />}>
          <Show when={raw.data() !== undefined} fallback={<Skeleton lines={8} />}>
            <ol class="rawlines card" data-testid="raw-lines">
              <For each={all() ? lines() : lines().slice(0, 400)}>
                {(l) => (
                  <li>
                    <button type="button" class="ln" aria-label={`Line ${l.n}: ${open().has(l.n) ? 'fold' : 'unfold'}`} aria-expanded={open().has(l.n)} onClick={() => toggle(l.n)}>
                      {l.n}
                    </button>
                    <span>
                      <Show when={fromOf(l)}>
                        <span class={FROM_CLASS[fromOf(l)] ?? 'badge'}>{fromOf(l)}</span>
                      </Show>
                    </span>
                    <span class={`line${open().has(l.n) ? ' open' : ''}${l.ok ? '' : ' bad'}`} onClick={() => !open().has(l.n) && toggle(l.n)}>
                      {open().has(l.n) && l.ok ? pretty(l.value) : l.text}
                    </span>
                  </li>
                )}
              </For>
            </ol>
            <Show when={!all() && lines().length > 400}>
              <Button size="sm" onClick={() => setAll(true)}>
                Show all {lines().length} lines
              </Button>
            </Show>
          </Show>
        </Show>
        </Show>
      </Show>
    </div>
  );
}

export function ToolsTable(props: { tools: ToolInfo[] }) {
  const notes = (t: ToolInfo) =>
    `${t.read_only_hint === null ? 'no readOnlyHint' : `readOnlyHint: ${t.read_only_hint}`}${t.destructive_hint === null ? '' : ` · destructiveHint: ${t.destructive_hint}`}`;
  return (
    <DataTable
      stacking
      rows={props.tools}
      empty={
        <Empty icon="wrench" title="No tools/list in this session">
          The host never asked the server for its tools.
        </Empty>
      }
      columns={[
        { head: 'Tool', class: 'mono', style: { 'overflow-wrap': 'anywhere' }, cell: (t) => t.name },
        { head: 'Kind', cell: (t) => <KindBadge kind={t.kind} /> },
        { head: 'Description', style: { 'overflow-wrap': 'anywhere', 'max-width': '48ch' }, cell: (t) => t.description ?? '—' },
        { head: 'Arguments', class: 'mono', style: SMALL_WRAP, cell: (t) => t.contract ?? '—' },
        { head: 'Annotations', class: 'mono subtle', style: SMALL, cell: notes },
      ]}
    />
  );
}

/** The flow's runs: one per agent call it ran after, with the sites it visited and its surprise. */
export function RunsTable(props: { detail: { calls: { id: string; tool: string }[]; runs: FlowRun[] } }) {
  const calls = () => new Map(props.detail.calls.map((c) => [c.id, c]));
  return (
    <DataTable
      stacking
      rows={props.detail.runs}
      empty={<p class="muted" style={{ padding: '0 18px 12px' }}>The flow log has no runs.</p>}
      columns={[
        {
          head: 'After the agent’s call',
          label: 'After',
          cell: (r) => (
            <>
              <code>{calls().get(r.after)?.tool ?? r.call}</code> <code>#{r.after}</code>
            </>
          ),
        },
        { head: 'Call failed', cell: (r) => (r.failed ? <span class="badge danger">failed</span> : 'no') },
        { head: 'Lookups allowed', headClass: 'n', class: 'n', cell: (r) => r.max_lookups },
        { head: 'Sites it visited', label: 'Sites', class: 'mono', style: SMALL_WRAP, cell: (r) => (r.sites.length ? r.sites.map((s) => s[0]).join(', ') : '—') },
        {
          head: <Term word="surprise">Surprise</Term>,
          label: 'Surprise',
          headClass: 'n',
          headTitle: "How unexpected the server's answers were under the flow's statistics",
          class: 'n',
          cell: (r) => (r.surprise === null ? '—' : `${r.surprise.toFixed(2)} nats`),
        },
      ]}
    />
  );
}

/** The confirmation judge's log: one card per judgment, as the proxy wrote it. */
export function Confirmations(props: { items: unknown[] }) {
  const field = (x: unknown, k: string): unknown => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>)[k] : undefined);
  return (
    <Show
      when={props.items.length > 0}
      fallback={
        <Empty icon="check" title="No confirmation log">
          The proxy writes one when it runs with guards and a confirmation judge: before a write the guards check, the judge asks whether the customer agreed.
        </Empty>
      }
    >
      <ol class="stack" style={{ gap: '12px', 'list-style': 'none', margin: 0, padding: 0 }}>
        <For each={props.items}>
          {(c) => {
            const tool = typeof field(c, 'tool') === 'string' ? (field(c, 'tool') as string) : '(no tool)';
            const fails = field(c, 'fails') === true;
            const unknown = field(c, 'unknown') === true;
            const pYes = field(c, 'p_yes');
            return (
              <li class="card" style={{ padding: '12px 14px', display: 'flex', 'flex-direction': 'column', gap: '8px' }}>
                <div class="filters" style={{ gap: '8px' }}>
                  <code>{tool}</code>
                  <span class={fails ? 'badge danger' : unknown ? 'badge warn' : 'badge accent'}>{fails ? 'fails' : unknown ? 'unknown' : 'passes'}</span>
                  <span class="badge">{field(c, 'enforced') === true ? 'enforced' : 'logged only'}</span>
                  <span class="badge">word list {field(c, 'word_list') === true ? 'passes' : 'fails'}</span>
                  <Show when={typeof pYes === 'number'}>
                    <span class="subtle">p(yes) {formatProb(pYes as number)}</span>
                  </Show>
                  <Show when={typeof field(c, 'error') === 'string'}>
                    <span class="danger-text">{field(c, 'error') as string}</span>
                  </Show>
                  <Show when={typeof field(c, 'skipped') === 'string'}>
                    <span class="subtle">{field(c, 'skipped') as string}</span>
                  </Show>
                </div>
                <JsonTree value={c} label="The judgment, as the proxy wrote it" depth={1} what="JSON" />
              </li>
            );
          }}
        </For>
      </ol>
    </Show>
  );
}
