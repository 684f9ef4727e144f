// The session page's other views: the decisions table grouped by the call they followed, the raw log
// (its events in short, or the JSON lines themselves) and the tools the server listed.
import { createSignal, For, Show } from 'solid-js';
import type { FlowDecision, SessionDetail, ToolInfo } from '../../../../shared/sessions.ts';
import { getSessionRaw, sessionRawUrl } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { formatOffset, formatProb } from '../../lib/format.ts';
import { compact, jsonLines, pretty } from '../../lib/json.ts';
import { decisionValue } from '../../lib/timeline.ts';
import { JsonTree } from '../ui/JsonTree.tsx';
import { Button, CopyButton, Empty, ErrorState, KindBadge, ProbBar, Segmented, Skeleton } from '../ui/ui.tsx';

export function DecisionsTable(props: { detail: SessionDetail; threshold: number }) {
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
          <thead>
            <tr>
              <th scope="col">Site</th>
              <th scope="col">Decision</th>
              <th scope="col">Arguments</th>
              <th scope="col" class="n">
                p
              </th>
              <th scope="col" class="n">
                Binding
              </th>
              <th scope="col">Against the threshold</th>
            </tr>
          </thead>
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
                      <td data-label="Site">
                        <code>{d.address}</code> after <code>{d.site}</code>
                      </td>
                      <td data-label="Decision">
                        <Show when={d.action === 'lookup'} fallback={<span class="badge">hands back</span>}>
                          <span class={d.shadow ? 'badge dashed' : 'badge accent'}>{d.shadow ? 'would look up' : 'looks up'}</span> <code>{d.tool ?? ''}</code>
                        </Show>
                        <Show when={d.reason}>
                          <div class="subtle" style={{ 'font-size': '12px' }}>
                            {d.reason}
                          </div>
                        </Show>
                      </td>
                      <td data-label="Arguments" class="mono" style={{ 'font-size': '12px' }} title={d.arguments === null ? undefined : compact(d.arguments, 4000)}>
                        {d.arguments === null ? '—' : compact(d.arguments, 200)}
                      </td>
                      <td data-label="p" class="n">
                        {formatProb(d.prob)}
                      </td>
                      <td data-label="Binding" class="n">
                        {formatProb(d.binding)}
                      </td>
                      <td data-label="Against the threshold">
                        <Show when={d.prob !== null} fallback={<span class="subtle">no lookup weighed</span>}>
                          <ProbBar value={decisionValue(d)} threshold={props.threshold} width={72} acts={d.action === 'lookup'} />
                        </Show>
                      </td>
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

const FROM_CLASS: Record<string, string> = { client: 'badge', server: 'badge', proxy: 'badge accent', context: 'badge dashed', header: 'badge' };

export function RawLog(props: { detail: SessionDetail; sessionKey: string; fileName: string }) {
  const [view, setView] = createSignal<'events' | 'lines'>('events');
  const raw = createApiResource(
    () => (view() === 'lines' ? props.sessionKey : false),
    (key, signal) => getSessionRaw(key, { signal }),
  );
  const lines = () => jsonLines(raw.data() ?? '');
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
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">From</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Id</th>
                  <th scope="col">Summary</th>
                </tr>
              </thead>
              <tbody>
                <For each={props.detail.events}>
                  {(e) => (
                    <tr>
                      <td class="mono num nowrap">{formatOffset(e.t_ms)}</td>
                      <td>
                        <span class={FROM_CLASS[e.from] ?? 'badge'}>{e.from}</span>
                      </td>
                      <td>
                        {e.kind}
                        <Show when={e.method}>
                          {' '}
                          <span class="mono">{e.method}</span>
                        </Show>
                      </td>
                      <td class="mono nowrap">{e.id ?? ''}</td>
                      <td class="mono" style={{ 'font-size': '12px', 'overflow-wrap': 'anywhere' }}>
                        {e.summary}
                      </td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </div>
        }
      >
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
    </div>
  );
}

export function ToolsTable(props: { tools: ToolInfo[] }) {
  const notes = (t: ToolInfo) =>
    `${t.read_only_hint === null ? 'no readOnlyHint' : `readOnlyHint: ${t.read_only_hint}`}${t.destructive_hint === null ? '' : ` · destructiveHint: ${t.destructive_hint}`}`;
  return (
    <Show
      when={props.tools.length > 0}
      fallback={
        <Empty icon="wrench" title="No tools/list in this session">
          The host never asked the server for its tools.
        </Empty>
      }
    >
      <div class="table-wrap">
        <table class="table stacking">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Kind</th>
              <th scope="col">Description</th>
              <th scope="col">Arguments</th>
              <th scope="col">Annotations</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.tools}>
              {(t) => (
                <tr>
                  <td data-label="Tool" class="mono" style={{ 'overflow-wrap': 'anywhere' }}>
                    {t.name}
                  </td>
                  <td data-label="Kind">
                    <KindBadge kind={t.kind} />
                  </td>
                  <td data-label="Description" style={{ 'overflow-wrap': 'anywhere', 'max-width': '48ch' }}>
                    {t.description ?? '—'}
                  </td>
                  <td data-label="Arguments" class="mono" style={{ 'font-size': '12px', 'overflow-wrap': 'anywhere' }}>
                    {t.contract ?? '—'}
                  </td>
                  <td data-label="Annotations" class="mono subtle" style={{ 'font-size': '12px' }}>
                    {notes(t)}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </Show>
  );
}

/** The flow's runs: one per agent call it ran after, with the sites it visited and its surprise. */
export function RunsTable(props: { detail: SessionDetail }) {
  const calls = () => new Map(props.detail.calls.map((c) => [c.id, c]));
  return (
    <Show when={props.detail.runs.length > 0} fallback={<p class="muted" style={{ padding: '0 18px 12px' }}>The flow log has no runs.</p>}>
      <div class="table-wrap">
        <table class="table stacking">
          <thead>
            <tr>
              <th scope="col">After the agent’s call</th>
              <th scope="col">Call failed</th>
              <th scope="col" class="n">
                Lookups allowed
              </th>
              <th scope="col">Sites it visited</th>
              <th scope="col" class="n" title="How unexpected the server's answers were under the flow's statistics">
                Surprise
              </th>
            </tr>
          </thead>
          <tbody>
            <For each={props.detail.runs}>
              {(r) => (
                <tr>
                  <td data-label="After">
                    <code>{calls().get(r.after)?.tool ?? r.call}</code> <code>#{r.after}</code>
                  </td>
                  <td data-label="Call failed">{r.failed ? <span class="badge danger">failed</span> : 'no'}</td>
                  <td data-label="Lookups allowed" class="n">
                    {r.max_lookups}
                  </td>
                  <td data-label="Sites" class="mono" style={{ 'font-size': '12px', 'overflow-wrap': 'anywhere' }}>
                    {r.sites.length ? r.sites.map((s) => s[0]).join(', ') : '—'}
                  </td>
                  <td data-label="Surprise" class="n">
                    {r.surprise === null ? '—' : `${r.surprise.toFixed(2)} nats`}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </Show>
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
