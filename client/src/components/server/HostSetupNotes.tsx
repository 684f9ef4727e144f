// Beside the snippet: what makes it run elsewhere than this console looks. engine init's texts stay exactly
// the CLI's, so the page says it: a proxy the console does not find (the host will not find it either,
// unless its PATH differs), and next steps whose paths are under ~/.engine while this console serves
// another data directory.
import { Show } from 'solid-js';
import { Notice } from '../ui/ui.tsx';

export function HostSetupNotes(props: { proxyNote: string | null; proxyMissing: boolean; dataDirShown: string }) {
  return (
    <>
      <Show when={props.proxyNote}>
        {(note) => (
          <Notice tone={props.proxyMissing ? 'warn' : 'info'} role="status" testid="proxy-note">
            <Show
              when={props.proxyMissing}
              fallback={<>engine-proxy is not on this console’s PATH, so the configuration names the one beside the console by its full path. </>}
            >
              This configuration runs <code>engine-proxy</code>, which this console finds neither on its PATH nor beside itself (Health
              says it is not found), so the host will not start the server. Install engine-proxy where the host finds it, on the PATH
              it starts servers with (docs/install.md), then reload this page: the console looks again.{' '}
            </Show>
            engine init says the same: <code class="wrap">{note()}</code>
          </Notice>
        )}
      </Show>
      <Show when={props.dataDirShown !== '~/.engine'}>
        <Notice tone="warn" role="status" testid="data-dir-note">
          The next steps are the commands engine init prints, with its paths under <code>~/.engine</code>. This console serves{' '}
          <code class="wrap">{props.dataDirShown}</code>: a flow written under <code>~/.engine</code> will not appear here. Put{' '}
          <code class="wrap">{props.dataDirShown}</code> in place of <code>~/.engine</code> in each path, or run the step as a job (under
          Next steps), which works in this data directory.
        </Notice>
      </Show>
    </>
  );
}
