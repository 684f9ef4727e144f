// The confirmation judge's log of a session: one card per judgment, as the proxy wrote it.
import { For, Show } from 'solid-js';
import { formatProb } from '../../lib/format.ts';
import { JsonTree } from '../ui/JsonTree.tsx';
import { Empty } from '../ui/ui.tsx';

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
