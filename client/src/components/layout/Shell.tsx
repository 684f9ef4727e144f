// The frame around every page: the sidebar (a drawer at ≤900 px), the top bar, the skip link, the help
// dialog of keyboard shortcuts.
import { A, useLocation } from '@solidjs/router';
import { createEffect, createSignal, For, type JSX, on, Show } from 'solid-js';
import { liveStatus } from '../../api/events.ts';
import { meta } from '../../stores/auth.ts';
import { domain, domainNames, setDomain } from '../../stores/domain.ts';
import { runningJobs } from '../../stores/jobs.ts';
import { cycleTheme, theme, THEME_TITLE } from '../../stores/theme.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { openPalette } from './Palette.tsx';
import { Brand } from './SignIn.tsx';

const SIDEBAR_KEY = 'engine-console:sidebar';
const readCollapsed = () => {
  try {
    return localStorage.getItem(SIDEBAR_KEY) === 'collapsed';
  } catch {
    return false;
  }
};
const [collapsed, setCollapsedSignal] = createSignal(readCollapsed());
const setCollapsed = (v: boolean) => {
  setCollapsedSignal(v);
  try {
    localStorage.setItem(SIDEBAR_KEY, v ? 'collapsed' : 'expanded');
  } catch {
    /* this page only */
  }
};

const [drawer, setDrawer] = createSignal(false);
export const closeDrawer = () => setDrawer(false);
const [help, setHelp] = createSignal(false);
export const openHelp = () => setHelp(true);

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(`${navigator.platform} ${navigator.userAgent}`);

const LINKS: { to: string; label: string; icon: IconName; match: RegExp }[] = [
  { to: '/', label: 'Overview', icon: 'overview', match: /^\/$/ },
  { to: '/servers', label: 'Servers', icon: 'server', match: /^\/servers(\/|$)/ },
  { to: '/sessions', label: 'Sessions', icon: 'sessions', match: /^\/sessions(\/|$)/ },
  { to: '/search', label: 'Search all sessions', icon: 'search', match: /^\/search$/ },
  { to: '/flows', label: 'Flows', icon: 'flow', match: /^\/flows(\/|$)/ },
  { to: '/jobs', label: 'Jobs', icon: 'terminal', match: /^\/jobs(\/|$)/ },
];

function NavLink(props: { to: string; label: string; icon: IconName; match: RegExp; pill?: number }) {
  const loc = useLocation();
  const current = () => props.match.test(loc.pathname);
  return (
    <A
      href={props.to}
      class={`nav-link${current() ? ' current' : ''}`}
      aria-current={current() ? 'page' : undefined}
      title={collapsed() ? props.label : undefined}
      onClick={() => setDrawer(false)}
      end
    >
      <Icon name={props.icon} size={18} />
      <span class="nav-label">{props.label}</span>
      <Show when={(props.pill ?? 0) > 0}>
        <span class="nav-pill" title={`${props.pill} running`}>
          {props.pill}
          <span class="sr-only"> running</span>
        </span>
      </Show>
    </A>
  );
}

function SideNav() {
  return (
    <nav class="sidenav" aria-label="Pages">
      <A href="/" class="nav-brand" aria-label="engine console, overview" onClick={() => setDrawer(false)}>
        <Brand small={collapsed()} />
      </A>
      <div class="nav-links">
        <For each={LINKS}>{(l) => <NavLink {...l} pill={l.to === '/jobs' ? runningJobs() : 0} />}</For>
      </div>
      <div class="nav-bottom">
        <NavLink to="/trash" label="Trash" icon="trash" match={/^\/trash/} />
        <NavLink to="/settings" label="Settings" icon="settings" match={/^\/settings/} />
        <div class="nav-foot">
          <span class="nav-version" title={meta()?.data_dir}>
            v{meta()?.version ?? '…'} · {meta()?.data_dir ?? ''}
          </span>
          <button
            type="button"
            class="btn btn-ghost btn-sm btn-square collapse-btn"
            aria-label={collapsed() ? 'Expand the sidebar' : 'Collapse the sidebar'}
            title={collapsed() ? 'Expand the sidebar' : 'Collapse the sidebar'}
            onClick={() => setCollapsed(!collapsed())}
          >
            <Icon name={collapsed() ? 'panel-open' : 'panel-close'} />
          </button>
        </div>
      </div>
    </nav>
  );
}

const LIVE = {
  live: { word: 'Live', title: 'Lists refresh as engine writes sessions, flows and jobs' },
  connecting: { word: 'Connecting', title: 'Opening the live updates' },
  reconnecting: { word: 'Reconnecting', title: 'The live updates dropped; trying again' },
  off: { word: 'Offline', title: 'No live updates' },
} as const;

function TopBar() {
  const options = () => {
    const d = domain();
    const list = domainNames();
    return d && !list.includes(d) ? [d, ...list] : list;
  };
  return (
    <header class="topbar">
      <button type="button" class="btn btn-ghost btn-square menu-btn" aria-label="Open the menu" onClick={() => setDrawer(true)}>
        <Icon name="menu" size={18} />
      </button>
      <label class="sr-only" for="domain-filter">
        Domain
      </label>
      <select
        id="domain-filter"
        class={`domain-filter${domain() ? ' set' : ''}`}
        data-testid="domain-filter"
        value={domain() ?? ''}
        onChange={(e) => setDomain(e.currentTarget.value || null)}
      >
        <option value="">All domains</option>
        <For each={options()}>{(n) => <option value={n}>{n}</option>}</For>
      </select>
      <button type="button" class="search-btn" data-testid="palette-open" onClick={openPalette}>
        <Icon name="search" />
        <span class="search-text">Search or jump to…</span>
        <span class="keycaps" aria-hidden="true">
          <kbd>{isMac ? '⌘' : 'Ctrl'}</kbd>
          <kbd>K</kbd>
        </span>
        <span class="sr-only">({isMac ? '⌘' : 'Ctrl'} K)</span>
      </button>
      <span class="topbar-spacer" />
      <Show when={meta()?.read_only}>
        <span class="pill warn" data-testid="read-only" title="Started with --read-only: every write and action is refused">
          <Icon name="lock" />
          <span class="pill-word">Read-only</span>
        </span>
      </Show>
      <span class={`live live-${liveStatus()}`} data-testid="live" title={LIVE[liveStatus()].title}>
        <span class="live-dot" aria-hidden="true" />
        <span class="live-word">{LIVE[liveStatus()].word}</span>
      </span>
      <button type="button" class="btn btn-ghost btn-square" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => setHelp(true)}>
        <Icon name="keyboard" size={18} />
      </button>
      <button type="button" class="btn btn-ghost btn-square" title={THEME_TITLE[theme()]} aria-label={`${THEME_TITLE[theme()]}. Change it`} onClick={cycleTheme}>
        <Icon name={theme() === 'system' ? 'monitor' : theme() === 'light' ? 'sun' : 'moon'} size={18} />
      </button>
    </header>
  );
}

const SHORTCUTS: [string[], string][] = [
  [[isMac ? '⌘' : 'Ctrl', 'K'], 'Search or jump to'],
  [['/'], 'Search or jump to'],
  [['g', 'o'], 'Go to the overview'],
  [['g', 'v'], 'Go to servers'],
  [['g', 's'], 'Go to sessions'],
  [['g', 'f'], 'Go to flows'],
  [['g', 'j'], 'Go to jobs'],
  [['g', 'n'], 'Start a new job'],
  [['g', 'e'], 'Go to settings'],
  [['g', 't'], 'Go to the trash'],
  [['u'], 'Undo the last delete, while its toast shows'],
  [['?'], 'Show these shortcuts'],
  [['Esc'], 'Close the menu, palette or dialog'],
];

export function Shell(props: { children: JSX.Element }) {
  const loc = useLocation();
  createEffect(on(() => loc.pathname, () => setDrawer(false), { defer: true }));
  return (
    <div class={`shell${collapsed() ? ' collapsed' : ''}${drawer() ? ' drawer-open' : ''}`}>
      <a class="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to the page
      </a>
      <SideNav />
      <Show when={drawer()}>
        <div class="scrim" aria-hidden="true" onClick={() => setDrawer(false)} />
      </Show>
      <div class="shell-main">
        <TopBar />
        <main id="main" tabindex="-1" class="main">
          {props.children}
        </main>
      </div>
      <Dialog open={help()} title="Keyboard shortcuts" onClose={() => setHelp(false)}>
        <dl class="shortcuts">
          <For each={SHORTCUTS}>
            {([keys, what]) => (
              <>
                <dt>
                  <For each={keys}>{(k) => <kbd>{k}</kbd>}</For>
                </dt>
                <dd>{what}</dd>
              </>
            )}
          </For>
        </dl>
      </Dialog>
    </div>
  );
}
