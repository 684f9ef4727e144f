// The domain's tools as the flow knows them: reads first (the only tools it may call), then writes, then the
// rest, each group by name.
import { For, Show } from 'solid-js';
import type { FlowTool } from '../../../../shared/flows.ts';
import { Icon } from '../ui/Icon.tsx';
import { KindBadge } from '../ui/ui.tsx';

const order = { read: 0, write: 1, generic: 2 } as const;

export default function FlowToolsTable(props: { tools: FlowTool[] }) {
  const sorted = () => [...props.tools].sort((a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name));
  return (
    <div class="table-wrap">
      <table class="table stacking">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Kind</th>
            <th scope="col">The flow</th>
            <th scope="col">What it does</th>
            <th scope="col">Pinned input</th>
          </tr>
        </thead>
        <tbody>
          <For each={sorted()}>
            {(t) => (
              <tr>
                <td data-label="Tool" class="mono strong wrap tool-name">{t.name}</td>
                <td data-label="Kind"><KindBadge kind={t.kind} /></td>
                <td data-label="The flow">
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
                </td>
                <td data-label="What it does" class="wrap">
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
                </td>
                <td data-label="Pinned input" class="mono wrap">{t.contract ?? '—'}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}
