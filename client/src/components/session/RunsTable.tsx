// The flow's runs in a session: one per agent call it ran after, with the sites it visited and its surprise.
import type { FlowRun } from '../../../../shared/sessions.ts';
import { DataTable } from '../ui/Table.tsx';
import { Term } from '../ui/Term.tsx';
import { SMALL_WRAP } from './cell-styles.ts';

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
