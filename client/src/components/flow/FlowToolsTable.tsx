// The domain's tools as the flow knows them: reads first (the only tools it may call), then writes, then the
// rest, each group by name.
import { For, Show } from 'solid-js';
import type { FlowTool } from '../../../../shared/flows.ts';
import { Icon } from '../ui/Icon.tsx';
import { DataTable } from '../ui/Table.tsx';
import { KindBadge } from '../ui/ui.tsx';

const order = { read: 0, write: 1, generic: 2 } as const;

export default function FlowToolsTable(props: { tools: FlowTool[] }) {
  const sorted = () => [...props.tools].sort((a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name));
  return (
    <DataTable
      stacking
      rows={sorted()}
      columns={[
        { head: 'Tool', class: 'mono strong wrap tool-name', cell: (t) => t.name },
        { head: 'Kind', cell: (t) => <KindBadge kind={t.kind} /> },
        {
          head: 'The flow',
          cell: (t) => (
            <Show
              when={t.kind === 'read'}
              fallback={
                <span class="nowrap" classList={{ strong: t.kind === 'write' }}>
                  <Icon name="lock" size={14} /> never calls it
                </span>
              }
            >
              <span class="nowrap">may call it</span>
            </Show>
          ),
        },
        {
          head: 'What it does',
          class: 'wrap',
          cell: (t) => (
            <>
              {t.summary ?? '—'}
              <Show when={Object.keys(t.args).length > 0}>
                <details class="tool-args">
                  <summary>
                    {Object.keys(t.args).length} {Object.keys(t.args).length === 1 ? 'argument' : 'arguments'}
                  </summary>
                  <dl>
                    <For each={Object.entries(t.args)}>
                      {([name, doc]) => (
                        <>
                          <dt class="mono">{name}</dt>
                          <dd>{doc}</dd>
                        </>
                      )}
                    </For>
                  </dl>
                </details>
              </Show>
            </>
          ),
        },
        { head: 'Pinned input', class: 'mono wrap', cell: (t) => t.contract ?? '—' },
      ]}
    />
  );
}
