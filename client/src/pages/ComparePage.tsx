// Two sessions side by side (/sessions/compare?a=KEY&b=KEY): what each was, how b differs from a (turns,
// calls, errors, time, lookups), and their calls and the flow's decisions lined up by tool and order. At
// phone widths the sides stack: each row shows a, then b.
import { A, useSearchParams } from '@solidjs/router';
import { For, Show } from 'solid-js';
import type { CompareItem, CompareRow, SessionComparison } from '../../../shared/compare.ts';
import type { SessionSummary } from '../../../shared/sessions.ts';
import { getComparison } from '../api/endpoints.ts';
import '../components/session/compare.css';
import { Icon } from '../components/ui/Icon.tsx';
import { DataTable, type Column } from '../components/ui/Table.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Card, Empty, ModeBadge, PageHeader } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { argumentsText, better, compareHref, differenceText, KIND_LABEL } from '../lib/compare.ts';
import { formatCount, formatDateTime, formatDuration, formatOffset } from '../lib/format.ts';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const sessionHref = (key: string) => `/sessions/${encodeURIComponent(key)}`;

function Side(props: { label: string; s: SessionSummary }) {
  return (
    <Card class="compare-side" label={`Session ${props.label}`} testid={`compare-side-${props.label.toLowerCase()}`}>
      <h2>Session {props.label}</h2>
      <A class="idcell" href={sessionHref(props.s.key)}>
        {props.s.session_id}
      </A>
      <div class="line">
        <ModeBadge mode={props.s.mode} />
        <span class="mono">{props.s.domain ?? 'no domain'}</span>
        <Show when={props.s.agent}>
          <span>
            <Icon name="bot" /> {props.s.agent}
          </span>
        </Show>
      </div>
      <div class="line">
        <span>{formatDateTime(props.s.started_unix_ms)}</span>
        <span>{formatDuration(props.s.duration_ms)}</span>
      </div>
    </Card>
  );
}

function Differences(props: { c: SessionComparison }) {
  const items = () => {
    const { a, b, difference: d } = props.c;
    return [
      { label: 'LLM turns', from: a.llm_turns, to: b.llm_turns, delta: d.llm_turns, unit: 'count' as const },
      { label: 'Tool calls', from: a.tool_calls, to: b.tool_calls, delta: d.tool_calls, unit: 'count' as const },
      { label: 'Errors', from: a.errors, to: b.errors, delta: d.errors, unit: 'count' as const },
      { label: 'Time', from: a.duration_ms, to: b.duration_ms, delta: d.duration_ms, unit: 'ms' as const },
      { label: 'Flow lookups', from: a.flow_lookups, to: b.flow_lookups, delta: d.flow_lookups, unit: 'count' as const, neutral: true },
    ];
  };
  return (
    <dl class="compare-diff" aria-label="How session B differs from session A" data-testid="compare-difference">
      <For each={items()}>
        {(x) => (
          <div>
            <dt>{x.label}</dt>
            <dd>
              {x.unit === 'ms' ? formatDuration(x.from) : formatCount(x.from)} → {x.unit === 'ms' ? formatDuration(x.to) : formatCount(x.to)}
            </dd>
            <dd class={'neutral' in x ? undefined : better(x.delta)}>{differenceText(x.delta, x.unit)}</dd>
          </div>
        )}
      </For>
    </dl>
  );
}

function Item(props: { item: CompareItem | null }) {
  return (
    <Show when={props.item} fallback={<span class="compare-none">—</span>}>
      {(it) => (
        <div class="compare-item">
          <span class={`badge compare-kind ${it().kind}`}>{KIND_LABEL[it().kind]}</span>
          <span class="tool">{it().tool ?? (it().site !== null ? `after ${it().site}` : '')}</span>
          <Show when={it().arguments !== null && it().kind !== 'hand_back'}>
            <div class="args">{argumentsText(it().arguments)}</div>
          </Show>
          <Show when={it().reason}>
            <div class="why">{it().reason}</div>
          </Show>
          <div class="why">
            {formatOffset(it().t_ms)}
            <Show when={it().ok === false}>
              {' · '}
              <span class="danger-text">failed</span>
            </Show>
          </div>
        </div>
      )}
    </Show>
  );
}

const COLUMNS: Column<CompareRow>[] = [
  { head: 'Session A', label: 'A', cell: (r) => <Item item={r.a} /> },
  {
    head: <span class="sr-only">Pair</span>,
    label: 'Pair',
    class: 'compare-mark',
    cell: (r) => (
      <Show when={r.same_arguments !== null} fallback={<span class="sr-only">alone</span>}>
        <span title={r.same_arguments ? 'The same call' : 'The same tool, other arguments'}>{r.same_arguments ? '=' : '≈'}</span>
        <span class="sr-only">{r.same_arguments ? 'the same call' : 'the same tool, other arguments'}</span>
      </Show>
    ),
  },
  { head: 'Session B', label: 'B', cell: (r) => <Item item={r.b} /> },
];

export default function ComparePage() {
  const [params] = useSearchParams();
  const a = () => one(params.a);
  const b = () => one(params.b);
  const keys = () => (a() && b() ? { a: a(), b: b() } : null);
  const res = createApiResource(keys, (k, signal) => getComparison(k.a, k.b, { signal }), { topics: ['sessions'] });
  useTitle(() => 'Compare sessions');

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/sessions', label: 'Sessions' }}
        title="Compare sessions"
        sub="Session A and session B call by call: calls of the same tool pair up, the flow’s lookups beside the agent’s calls; hand-backs and shadow decisions stand alone."
        actions={
          <Show when={keys()}>
            <Button icon="chevrons-up-down" to={compareHref(b(), a())}>
              Swap A and B
            </Button>
          </Show>
        }
      />
      <Show
        when={keys()}
        fallback={
          <Card label="Compare sessions">
            <Empty
              icon="sessions"
              title="Pick two sessions"
              actions={
                <Button variant="primary" icon="sessions" to="/sessions">
                  Go to the sessions
                </Button>
              }
            >
              Tick two sessions in the list, then choose Compare.
            </Empty>
          </Card>
        }
      >
        <Loaded
          resource={res}
          skeleton={8}
          skeletonHeight={20}
          skeletonLabel="Loading the comparison"
          notFoundTitle="No such session"
          errorFrame={(e) => <Card label="Comparison">{e}</Card>}
        >
          {(c) => (
            <div class={res.refreshing() ? 'stack refreshing' : 'stack'} style={{ display: 'grid', gap: '16px' }}>
              <div class="compare-sides">
                <Side label="A" s={c().a} />
                <Side label="B" s={c().b} />
              </div>
              <Differences c={c()} />
              <Card
                flush
                title="Calls and decisions"
                caption={`${formatCount(c().paired)} ${c().paired === 1 ? 'pair' : 'pairs'} of calls; ${formatCount(c().rows.length - c().paired)} alone on one side`}
              >
                <DataTable columns={COLUMNS} rows={c().rows} stacking class="compare-table" testid="compare-rows" />
              </Card>
            </div>
          )}
        </Loaded>
      </Show>
    </div>
  );
}
