// What the server page loads and does, apart from how it shows it: the server (from the list, refreshed on
// servers, sessions and flows events), each host's configuration for the tab chosen (kept in localStorage),
// the connection test and removing it from the registry. Its components take these and never fetch.
import { createMemo, createSignal, type Accessor } from 'solid-js';
import { HOSTS, type Host } from '../../../shared/servers.ts';
import { deleteServer, getServerConfig, getServers, probeServer } from '../api/endpoints.ts';
import { createAction } from '../data/createAction.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { removedServerToast } from '../lib/undo-delete.ts';

const HOST_KEY = 'engine-console:host';

function storedHost(): Host {
  try {
    const h = localStorage.getItem(HOST_KEY);
    return (HOSTS as readonly string[]).includes(h ?? '') ? (h as Host) : 'claude-code';
  } catch {
    return 'claude-code';
  }
}

/**
 * The host tab chosen, remembered across pages, and its configuration for the server named (none: no load),
 * loaded again with each load of the servers list (`listLoad`), so a server an event removed is not asked for.
 */
function createHostConfig(name: Accessor<string | null>, listLoad: Accessor<number>) {
  const [host, setHost] = createSignal<Host>(storedHost());
  const choose = (h: Host) => {
    setHost(h);
    try {
      localStorage.setItem(HOST_KEY, h);
    } catch {
      /* kept for this page only */
    }
  };
  const config = createApiResource(
    () => {
      const n = name();
      return n === null ? null : { name: n, host: host(), listLoad: listLoad() };
    },
    (s, signal) => getServerConfig(s.name, s.host, { signal }),
    { topics: ['flows'] },
  );
  return { host, choose, config };
}

export function createServerPageData(name: Accessor<string>, removed: () => void, navigate: (href: string) => void) {
  const servers = createApiResource(() => ({}), (_s, signal) => getServers({ signal }), { topics: ['servers', 'sessions', 'flows'] });
  const server = createMemo(() => servers.data()?.items.find((s) => s.name === name()) ?? null);
  // The configuration follows the list rather than the servers event itself: asked beside the list, it was
  // asked for a server the same event had removed (a 404).
  let loads = 0;
  const listLoad = createMemo(() => (servers.data(), ++loads));
  const hostConfig = createHostConfig(() => server()?.name ?? null, listLoad);
  /** `env`: one-off values for an HTTP server's header variables, sent with this test only. */
  const probe = createAction((env: Record<string, string>) => probeServer(name(), env));
  const remove = createAction(() => deleteServer(name()), {
    failure: 'Could not remove the server',
    after: () => {
      const gone = name();
      removedServerToast(gone, () => navigate(`/servers/${encodeURIComponent(gone)}`));
      removed();
    },
  });
  return { servers, server, hostConfig, probe, remove };
}
