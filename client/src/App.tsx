// The root of the app: the four shell states (unknown, signed-in, signed-out, unreachable), the event
// stream and the stores that follow sign-in, the global shortcuts, and the toast host (always mounted).
import { useNavigate, usePreloadRoute, type RouteSectionProps } from '@solidjs/router';
import { createEffect, Match, on, onCleanup, onMount, Show, Switch } from 'solid-js';
import { setClientHooks } from './api/client.ts';
import { getOverview, getServers } from './api/endpoints.ts';
import { closeEvents, followStream, onChanged, openEvents } from './api/events.ts';
import { startEarlyLoads } from './data/early-loads.ts';
import { Palette, closePalette, openPalette, paletteOpen, togglePalette } from './components/layout/Palette.tsx';
import { Shell, closeDrawer, openHelp } from './components/layout/Shell.tsx';
import { SignInScreen, UnreachableScreen } from './components/layout/SignIn.tsx';
import { ToastHost } from './components/layout/ToastHost.tsx';
import { Skeleton } from './components/ui/ui.tsx';
import { matches, sequenceTarget } from './lib/keys.ts';
import { undoLastDelete } from './lib/undo-delete.ts';
import { mergeDomainNames } from './lib/palette.ts';
import { throttle } from './lib/throttle.ts';
import { authState, checkMeta, signedOut } from './stores/auth.ts';
import { setDomainNames } from './stores/domain.ts';
import { startJobs, stopJobs } from './stores/jobs.ts';
import { toast } from './stores/toasts.ts';

setClientHooks({
  unauthorized: (reason) => signedOut(reason),
  failed: (e) => toast({ kind: 'error', title: 'The request failed', message: e.message }),
});

/** The domain names (the overview and servers lists) are asked again at most this often on changes. */
const DOMAINS_EVERY_MS = 3_000;

async function loadDomains(): Promise<void> {
  const [o, s] = await Promise.allSettled([getOverview(), getServers()]);
  setDomainNames(
    mergeDomainNames(o.status === 'fulfilled' ? o.value.domains.map((d) => d.name) : [], s.status === 'fulfilled' ? s.value.items.map((x) => x.name) : []),
  );
}

function inTextControl(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName);
}

export function App(props: RouteSectionProps) {
  const navigate = useNavigate();
  // The page is rendered once the sign-in is known (/api/meta); its code and its first data are fetched
  // meanwhile, not after.
  usePreloadRoute()(window.location.href);
  startEarlyLoads(window.location.pathname);
  onMount(() => void checkMeta());

  let stops: (() => void)[] = [];
  createEffect(
    on(authState, (s) => {
      for (const stop of stops) stop();
      stops = [];
      if (s === 'signed-in') {
        openEvents(() => void checkMeta());
        startJobs();
        const domains = followStream(() => void loadDomains());
        // New sessions come every second from a busy proxy; new domain names rarely do.
        const soon = throttle(domains.run, DOMAINS_EVERY_MS);
        stops = [domains.stop, soon.cancel, onChanged('sessions', soon), onChanged('servers', soon)];
      } else {
        stopJobs();
        closeEvents();
      }
    }),
  );

  let previous: { key: string; at: number } | null = null;
  const onKey = (e: KeyboardEvent) => {
    const inInput = inTextControl(e.target);
    if (matches(e, { key: 'k', mod: true, inInputs: true }, inInput)) {
      e.preventDefault();
      togglePalette();
      return;
    }
    if (e.key === 'Escape') {
      closeDrawer();
      return;
    }
    if (authState() !== 'signed-in' || paletteOpen() || document.querySelector('dialog[open]')) return;
    if (matches(e, { key: '/' }, inInput)) {
      e.preventDefault();
      openPalette();
      return;
    }
    if (inInput || e.metaKey || e.ctrlKey || e.altKey) return;
    if (e.key === '?') {
      e.preventDefault();
      openHelp();
      return;
    }
    if (e.key.toLowerCase() === 'u' && previous?.key !== 'g' && undoLastDelete()) {
      e.preventDefault();
      previous = null;
      return;
    }
    const target = sequenceTarget(previous, e.key, Date.now());
    previous = { key: e.key.toLowerCase(), at: Date.now() };
    if (target) {
      e.preventDefault();
      previous = null;
      closePalette();
      navigate(target);
    }
  };
  window.addEventListener('keydown', onKey);
  onCleanup(() => window.removeEventListener('keydown', onKey));

  return (
    <>
      <Switch>
        <Match when={authState() === 'signed-out'}>
          <SignInScreen />
        </Match>
        <Match when={authState() === 'unreachable'}>
          <UnreachableScreen />
        </Match>
        <Match when={true}>
          <Shell>
            <Show when={authState() === 'signed-in'} fallback={<div class="page"><Skeleton lines={6} height={18} /></div>}>
              {props.children}
            </Show>
          </Shell>
          <Show when={authState() === 'signed-in'}>
            <Palette />
          </Show>
        </Match>
      </Switch>
      <ToastHost />
    </>
  );
}
