// The tools a server lists now, as the connection test read them: name, kind (from readOnlyHint), what the
// flow may do with it, the description and the input contract. Everything here comes from the server
// under test and may be hostile, so it is shown as text only.
import { For, Show } from 'solid-js';
import type { ToolInfo } from '../../../../shared/sessions.ts';
import { KindBadge } from '../ui/ui.tsx';

export default function ToolsTable(props: { tools: ToolInfo[] }) {
  return (
    <div class="table-wrap">
      <table class="table stack" data-testid="probe-tools">
        <caption class="sr-only">The tools the server lists</caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Kind</th>
            <th scope="col">What it does</th>
            <th scope="col">Input</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.tools}>
            {(t) => (
              <tr data-testid="probe-tool">
                <td data-label="Tool" class="mono strong wrap">{t.name === '' ? '(no name)' : t.name}</td>
                <td data-label="Kind">
                  <KindBadge kind={t.kind} />
                  <Show when={t.destructive_hint === true}>
                    {' '}
                    <span class="badge warn" title="destructiveHint: true">destructive</span>
                  </Show>
                </td>
                <td data-label="What it does" class="wrap clamp">{t.description ?? '—'}</td>
                <td data-label="Input" class="mono wrap">{t.contract ?? '—'}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}
