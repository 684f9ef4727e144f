// One server: its issues, the configuration each MCP host needs (with engine-proxy in front), a live
// connection test, its setup in words, the proxy's command line, and removing it from the registry. What it
// loads and does is ServerPage.data.ts; the cards are components/server/.
import '../components/server/server.css';
import { useNavigate, useParams } from '@solidjs/router';
import { createSignal, For, Show, type JSX } from 'solid-js';
import type { ServerView } from '../../../shared/servers.ts';
import HostConfigTabs from '../components/server/HostConfigTabs.tsx';
import ProbePanel from '../components/server/ProbePanel.tsx';
import ReplayStart from '../components/replay/ReplayStart.tsx';
import ServerModeBadge from '../components/server/ServerModeBadge.tsx';
import { ServerSetup } from '../components/server/ServerSetup.tsx';
import { Dialog } from '../components/ui/Dialog.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Button, Card, CodeBlock, Empty, Notice, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { shellQuote, shownDataDir } from '../lib/server-form.ts';
import { flowSummaryOf, proxyCommand, stepJobs } from '../lib/server-view.ts';
import { meta, READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { createServerPageData } from './ServerPage.data.ts';

type PageData = ReturnType<typeof createServerPageData>;

const inCard = (content: JSX.Element) => <div class="card">{content}</div>;

function NoSuchServer(props: { name: string }) {
  return inCard(
    <Empty
      icon="server"
      heading="h2"
      title={`No server named ${props.name}`}
      actions={
        <Button variant="primary" icon="plus" to={`/servers/new?domain=${encodeURIComponent(props.name)}`} disabled={readOnly()} reason={READ_ONLY_REASON}>
          Add it
        </Button>
      }
    >
      It is not in the registry. It may have been removed, or its sessions came through a server that was never added.
    </Empty>,
  );
}

function ServerDetails(props: { server: ServerView; data: PageData }) {
  const s = () => props.server;
  const dataDir = () => shownDataDir(meta()?.data_dir ?? '~/.engine');
  const env = () => {
    const u = s().upstream;
    return u.kind === 'stdio' ? u.env : [];
  };
  const headers = () => {
    const u = s().upstream;
    return u.kind === 'http' ? u.headers : [];
  };
  const jobs = () => stepJobs({ ...s(), flow_key: flowSummaryOf(s().flow_summary)?.key ?? null }, meta()?.data_dir ?? '~/.engine', dataDir());
  const hosts = props.data.hostConfig;
  return (
    <div classList={{ refreshing: props.data.servers.refreshing() }} class="stack">
      <For each={s().issues}>
        {(issue) => (
          <Notice tone="warn" role="status">
            {issue}
          </Notice>
        )}
      </For>
      <div class="split">
        <div class="stack">
          <Card title="Host configuration" caption="What engine init prints: paste it into your MCP host, in place of the server’s own entry">
            <HostConfigTabs
              host={hosts.host()}
              onHost={hosts.choose}
              config={hosts.config}
              env={s().upstream.kind === 'stdio' ? env() : headers().map((h) => h.env)}
              dataDirShown={dataDir()}
              proxyMissing={meta()?.proxy === null}
              jobs={jobs()}
            />
          </Card>
          <Card title="The proxy’s command line" caption="What the host runs, for every host">
            <CodeBlock language="shell" wrap what="Command" code={proxyCommand(s().proxy_args, shellQuote)} />
          </Card>
        </div>
        <div class="stack">
          <Card title="Test connection" caption="Is the server there, and which tools does it list now?">
            <ProbePanel headers={headers()} probe={props.data.probe} />
          </Card>
          <ReplayStart server={s().name} caption="Does the server still answer as it did in its recorded sessions?" />
          <Card title="Setup">
            <ServerSetup server={s()} env={env()} headers={headers()} dataDirShown={dataDir()} />
          </Card>
        </div>
      </div>
    </div>
  );
}

export default function ServerPage() {
  const params = useParams<{ name: string }>();
  const navigate = useNavigate();
  const [removing, setRemoving] = createSignal(false);
  const data = createServerPageData(
    () => params.name,
    () => {
      setRemoving(false);
      navigate('/servers');
    },
    navigate,
  );
  useTitle(() => params.name);
  const blocked = () => readOnly() || data.server() === null;
  return (
    <div class="page">
      <PageHeader
        back={{ to: '/servers', label: 'Servers' }}
        title={params.name}
        mono
        meta={<Show when={data.server()}>{(s) => <ServerModeBadge mode={s().mode} />}</Show>}
        sub={data.server()?.description ?? undefined}
        actions={
          <>
            <Button icon="pencil" to={`/servers/${encodeURIComponent(params.name)}/edit`} disabled={blocked()} reason={readOnly() ? READ_ONLY_REASON : undefined}>
              Edit
            </Button>
            <Button variant="danger" icon="trash" disabled={blocked()} reason={readOnly() ? READ_ONLY_REASON : undefined} onClick={() => setRemoving(true)}>
              Remove
            </Button>
          </>
        }
      />
      <Loaded resource={data.servers} skeleton={inCard(<Skeleton lines={6} />)} errorFrame={inCard}>
        {() => (
          <Show when={data.server()} fallback={<NoSuchServer name={params.name} />}>
            {(s) => <ServerDetails server={s()} data={data} />}
          </Show>
        )}
      </Loaded>
      <Dialog
        open={removing()}
        title={`Remove ${params.name} from the registry?`}
        onClose={() => setRemoving(false)}
        footer={
          <>
            <Button onClick={() => setRemoving(false)}>Cancel</Button>
            <Button variant="danger" icon="trash" loading={data.remove.busy()} onClick={() => void data.remove.run()}>
              Remove
            </Button>
          </>
        }
      >
        <p>
          The console forgets this server’s setup (the trash keeps it: Undo, or restore it from Trash). Its sessions and its flow stay in
          the data dir, and a host that runs it keeps running it until you change the host’s configuration.
        </p>
      </Dialog>
    </div>
  );
}
