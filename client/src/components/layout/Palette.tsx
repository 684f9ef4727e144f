// The command palette (Ctrl/⌘-K, /): a modal combobox over pages, actions, servers, flows and a live
// session search (data/palette-sources.ts loads them). Arrows move (wrapping), Enter opens, Escape closes.
import { useNavigate } from '@solidjs/router';
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import { createPaletteSources } from '../../data/palette-sources.ts';
import { paletteResults, searchInsideEntry, type PaletteEntry } from '../../lib/palette.ts';
import { readOnly } from '../../stores/auth.ts';
import { cycleTheme } from '../../stores/theme.ts';
import { Icon } from '../ui/Icon.tsx';

const [open, setOpen] = createSignal(false);
export const paletteOpen = open;
export const openPalette = () => setOpen(true);
export const togglePalette = () => setOpen(!open());
export const closePalette = () => setOpen(false);

const PAGES: PaletteEntry[] = [
  { id: 'p-overview', group: 'Pages', label: 'Overview', to: '/' },
  { id: 'p-servers', group: 'Pages', label: 'Servers', to: '/servers' },
  { id: 'p-sessions', group: 'Pages', label: 'Sessions', to: '/sessions' },
  { id: 'p-search', group: 'Pages', label: 'Search all sessions', detail: 'inside calls, answers and the conversation', to: '/search' },
  { id: 'p-flows', group: 'Pages', label: 'Flows', to: '/flows' },
  { id: 'p-jobs', group: 'Pages', label: 'Jobs', to: '/jobs' },
  { id: 'p-trash', group: 'Pages', label: 'Trash', detail: 'deleted sessions and flows', to: '/trash' },
  { id: 'p-settings', group: 'Pages', label: 'Settings', to: '/settings' },
];

export function Palette() {
  const navigate = useNavigate();
  let dialog: HTMLDialogElement | undefined;
  let input: HTMLInputElement | undefined;
  const [query, setQuery] = createSignal('');
  const [active, setActive] = createSignal(0);
  const sources = createPaletteSources(open, query);

  const actions = (): PaletteEntry[] => [
    ...(readOnly()
      ? []
      : [
          { id: 'a-server', group: 'Actions' as const, label: 'Add a server', to: '/servers/new' },
          { id: 'a-learn', group: 'Actions' as const, label: 'New learn job', to: '/jobs/new?kind=learn' },
          { id: 'a-promote', group: 'Actions' as const, label: 'New promote job', to: '/jobs/new?kind=promote' },
          { id: 'a-audit', group: 'Actions' as const, label: 'New audit job', to: '/jobs/new?kind=audit' },
          { id: 'a-stage', group: 'Actions' as const, label: 'New stage job', to: '/jobs/new?kind=stage' },
          { id: 'a-redact', group: 'Actions' as const, label: 'New redact job', to: '/jobs/new?kind=redact' },
          { id: 'a-doctor', group: 'Actions' as const, label: 'Run engine doctor', to: '/jobs/new?kind=doctor' },
        ]),
    { id: 'a-theme', group: 'Actions', label: 'Change the theme', detail: 'system, light, dark', run: cycleTheme },
  ];

  const results = () =>
    paletteResults(
      {
        pages: PAGES,
        actions: actions(),
        servers: sources.servers().map((s) => ({ id: `s-${s.name}`, group: 'Servers', label: s.name, detail: s.description ?? '', mono: true, to: `/servers/${encodeURIComponent(s.name)}` })),
        // Versions in <name>.history/ are under their flow, not flows of their own.
        flows: sources.flows().filter((f) => !f.version_of).map((f) => ({ id: `f-${f.key}`, group: 'Flows', label: f.key, detail: f.error ? 'does not load' : `domain ${f.domain}`, mono: true, to: `/flows/${encodeURIComponent(f.key)}` })),
        sessions: [...searchInsideEntry(query()), ...sources.sessions()],
      },
      query(),
    );

  createEffect(
    on(open, (isOpen) => {
      if (!dialog) return;
      if (isOpen) {
        setQuery('');
        setActive(0);
        if (!dialog.open) dialog.showModal();
        input?.focus();
      } else if (dialog.open) dialog.close();
    }),
  );
  createEffect(on(query, () => setActive(0), { defer: true }));

  const choose = (e: PaletteEntry | undefined) => {
    if (!e) return;
    setOpen(false);
    if (e.run) e.run();
    else if (e.to) navigate(e.to);
  };
  const key = (ev: KeyboardEvent) => {
    const n = results().length;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (n === 0) return;
      setActive((active() + (ev.key === 'ArrowDown' ? 1 : -1) + n) % n);
      document.getElementById(`palette-opt-${active()}`)?.scrollIntoView({ block: 'nearest' });
    } else if (ev.key === 'Enter') {
      ev.preventDefault();
      choose(results()[active()]);
    }
  };

  return (
    <dialog
      ref={dialog}
      class="palette"
      aria-label="Search or jump to"
      onCancel={(e) => {
        e.preventDefault();
        setOpen(false);
      }}
      onClose={() => setOpen(false)}
      onMouseDown={(e) => {
        if (e.target === dialog) setOpen(false);
      }}
    >
      <div class="palette-input">
        <Icon name="search" />
        <input
          ref={input}
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-autocomplete="list"
          aria-label="Search or jump to"
          aria-activedescendant={results().length ? `palette-opt-${active()}` : undefined}
          placeholder="Search sessions, flows, servers and pages"
          data-testid="palette-input"
          value={query()}
          onInput={(e) => setQuery(e.currentTarget.value)}
          onKeyDown={key}
        />
        <kbd>Esc</kbd>
      </div>
      <PaletteList results={results()} active={active()} onActive={setActive} onChoose={choose} empty={sources.searching() ? 'Searching…' : `Nothing matches “${query()}”.`} />
      <div class="palette-foot" aria-hidden="true">
        <span>
          <kbd>↑</kbd> <kbd>↓</kbd> move
        </span>
        <span>
          <kbd>↵</kbd> open
        </span>
        <span>
          <kbd>Esc</kbd> close
        </span>
      </div>
    </dialog>
  );
}

/** The results, under their groups' headings; the active one is marked for Enter. */
function PaletteList(props: { results: PaletteEntry[]; active: number; onActive: (i: number) => void; onChoose: (e: PaletteEntry) => void; empty: string }) {
  return (
    <ul id="palette-list" role="listbox" aria-label="Results" class="palette-list">
      <For each={props.results}>
        {(e, i) => (
          <>
            <Show when={i() === 0 || props.results[i() - 1]!.group !== e.group}>
              <li role="presentation" class="palette-group">
                {e.group}
              </li>
            </Show>
            <li
              id={`palette-opt-${i()}`}
              role="option"
              aria-selected={i() === props.active}
              class="palette-option"
              onMouseMove={() => props.onActive(i())}
              onClick={() => props.onChoose(e)}
            >
              <span class={e.mono ? 'mono palette-label' : 'palette-label'}>{e.label}</span>
              <Show when={e.detail}>
                <span class="palette-detail">{e.detail}</span>
              </Show>
              <Show when={i() === props.active}>
                <Icon name="corner-down-left" class="palette-enter" />
              </Show>
            </li>
          </>
        )}
      </For>
      <Show when={props.results.length === 0}>
        <li role="presentation" class="palette-empty">
          {props.empty}
        </li>
      </Show>
    </ul>
  );
}
