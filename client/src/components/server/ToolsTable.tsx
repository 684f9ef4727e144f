// The tools a server lists now, as the connection test read them: name, kind (from readOnlyHint), the
// description and the input contract, one block per tool so it reads in the narrow column. Everything here
// comes from the server under test and may be hostile, so it is shown as text only.
import { For, Show } from 'solid-js';
import type { ToolInfo } from '../../../../shared/sessions.ts';
import { KindBadge } from '../ui/ui.tsx';

export default function ToolsTable(props: { tools: ToolInfo[] }) {
  return (
    <ul class="tool-list" data-testid="probe-tools" aria-label="The tools the server lists" tabindex="0">
      <For each={props.tools}>
        {(t) => (
          <li data-testid="probe-tool">
            <div class="tool-head">
              <span class="mono strong wrap">{t.name === '' ? '(no name)' : t.name}</span>
              <span class="badges">
                <KindBadge kind={t.kind} />
                <Show when={t.destructive_hint === true}>
                  <span class="badge warn" title="destructiveHint: true">
                    destructive
                  </span>
                </Show>
              </span>
            </div>
            <Show when={t.description}>
              <p class="tool-doc wrap">{t.description}</p>
            </Show>
            <Show when={t.contract}>
              <p class="tool-contract mono wrap">
                <span class="sr-only">Input: </span>
                {t.contract}
              </p>
            </Show>
          </li>
        )}
      </For>
    </ul>
  );
}
