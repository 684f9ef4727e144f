// The Overview's health list: what engine doctor would check, each with its level.
import { For, Show } from 'solid-js';
import type { HealthItem } from '../../../../shared/overview.ts';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { RichText } from '../ui/ui.tsx';

const LEVEL: Record<HealthItem['level'], { icon: IconName; sr: string }> = {
  ok: { icon: 'circle-check', sr: 'OK:' },
  note: { icon: 'info', sr: 'Note:' },
  warn: { icon: 'warn', sr: 'Warning:' },
  error: { icon: 'circle-x', sr: 'Error:' },
};

export function HealthList(props: { items: HealthItem[] }) {
  return (
    <Show when={props.items.length > 0} fallback={<p class="muted">Nothing to report.</p>}>
      <ul class="health">
        <For each={props.items}>
          {(h) => (
            <li class={`lvl-${h.level}`}>
              <Icon name={LEVEL[h.level].icon} />
              <span>
                <span class="sr-only">{LEVEL[h.level].sr} </span>
                <RichText text={h.message} />
              </span>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}
