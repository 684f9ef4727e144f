// The tools the server listed in a session (tools/list), with their kind, description, arguments and hints.
import type { ToolInfo } from '../../../../shared/sessions.ts';
import { DataTable } from '../ui/Table.tsx';
import { Empty, KindBadge } from '../ui/ui.tsx';
import { SMALL, SMALL_WRAP } from './cell-styles.ts';

export function SessionToolsTable(props: { tools: ToolInfo[] }) {
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
