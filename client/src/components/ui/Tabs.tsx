// WAI-ARIA tabs: a tablist of buttons with roving tabindex; arrows, Home and End move and select. The page
// renders the panel with TabPanel, labelled by the selected tab. On a phone the row scrolls sideways, and the
// selected tab is kept in view there (a deep link to a later tab included).
import { createEffect, For, type JSX, on, Show } from 'solid-js';
import { Icon, type IconName } from './Icon.tsx';

export interface TabDef<T extends string> {
  id: T;
  label: string;
  icon?: IconName;
  count?: number;
}

export function Tabs<T extends string>(props: { prefix: string; label: string; tabs: TabDef<T>[]; value: T; onChange: (id: T) => void }) {
  let list: HTMLDivElement | undefined;
  const key = (e: KeyboardEvent) => {
    const i = props.tabs.findIndex((t) => t.id === props.value);
    let j = i;
    if (e.key === 'ArrowRight') j = (i + 1) % props.tabs.length;
    else if (e.key === 'ArrowLeft') j = (i - 1 + props.tabs.length) % props.tabs.length;
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = props.tabs.length - 1;
    else return;
    e.preventDefault();
    props.onChange(props.tabs[j]!.id);
    queueMicrotask(() => list?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
  };
  // Centre the selected tab by scrolling the row only: scrollIntoView would scroll the page as well.
  createEffect(
    on(
      () => props.value,
      () =>
        queueMicrotask(() => {
          const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
          if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
          const a = tab.getBoundingClientRect();
          const b = list.getBoundingClientRect();
          list.scrollLeft += a.left - b.left - (b.width - a.width) / 2;
        }),
    ),
  );
  return (
    <div class="tabs" role="tablist" aria-label={props.label} ref={list} onKeyDown={key}>
      <For each={props.tabs}>
        {(t) => (
          <button
            type="button"
            role="tab"
            id={`${props.prefix}-tab-${t.id}`}
            aria-selected={t.id === props.value}
            aria-controls={`${props.prefix}-panel-${t.id}`}
            tabindex={t.id === props.value ? 0 : -1}
            onClick={() => props.onChange(t.id)}
          >
            <Show when={t.icon}>
              <Icon name={t.icon!} class="tab-icon" />
            </Show>
            {t.label}
            <Show when={t.count !== undefined}>
              <span class="tab-count">{t.count}</span>
            </Show>
          </button>
        )}
      </For>
    </div>
  );
}

export function TabPanel(props: { prefix: string; id: string; children: JSX.Element }) {
  return (
    <div role="tabpanel" id={`${props.prefix}-panel-${props.id}`} aria-labelledby={`${props.prefix}-tab-${props.id}`} class="tab-panel">
      {props.children}
    </div>
  );
}
