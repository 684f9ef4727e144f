// One server: its issues, the configuration each MCP host needs (with engine-proxy in front), a live
// connection test, its setup in words, the proxy's command line, and removing it from the registry.
import '../components/server/server.css';
import { A, useNavigate, useParams } from '@solidjs/router';
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { ApiError } from '../api/client.ts';
import { deleteServer, getServers } from '../api/endpoints.ts';
import FlowLink from '../components/server/FlowLink.tsx';
import HostConfigTabs from '../components/server/HostConfigTabs.tsx';
import ProbePanel from '../components/server/ProbePanel.tsx';
import ServerModeBadge from '../components/server/ServerModeBadge.tsx';
import { Dialog } from '../components/ui/Dialog.tsx';
import { Button, Card, CodeBlock, Empty, ErrorState, Notice, PageHeader, RelTime, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { formatDateTime } from '../lib/format.ts';
import { defaultRecordDir, shellQuote, shownDataDir, shownPath, upstreamText } from '../lib/server-form.ts';
import { deciderText, flowSummaryOf, policyRows, proxyCommand, stepJobs, thresholdText } from '../lib/server-view.ts';
import { meta, READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { toast } from '../stores/toasts.ts';

/** Where the proxy records: the argument after --record, as the server worked it out. */
function recordsTo(args: readonly string[]): string | null {
  const i = args.indexOf('--record');
  return i >= 0 ? (args[i + 1] ?? null) : null;
}

export default function ServerPage() {
  const params = useParams<{ name: string }>();
  const navigate = useNavigate();
  const servers = createApiResource(() => ({}), (_s, signal) => getServers({ signal }), { topics: ['servers', 'sessions', 'flows'] });
  const server = createMemo(() => servers.data()?.items.find((s) => s.name === params.name) ?? null);
  useTitle(() => params.name);

  const [removing, setRemoving] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const doRemove = async () => {
    setBusy(true);
    try {
      await deleteServer(params.name);
      setRemoving(false);
      toast({ kind: 'success', title: `Server ${params.name} removed from the registry`, message: 'Its sessions and flows stay where they are.' });
      navigate('/servers');
    } catch (e) {
      toast({ kind: 'error', title: 'Could not remove the server', message: (e as ApiError).message });
    } finally {
      setBusy(false);
    }
  };
  const dataDir = () => shownDataDir(meta()?.data_dir ?? '~/.engine');
  const blocked = () => readOnly() || server() === null;

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/servers', label: 'Servers' }}
        title={params.name}
        mono
        meta={<Show when={server()}>{(s) => <ServerModeBadge mode={s().mode} />}</Show>}
        sub={server()?.description ?? undefined}
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
      <Show when={!servers.error()} fallback={<div class="card"><ErrorState error={servers.error()!} retry={servers.refetch} /></div>}>
        <Show when={!servers.loading() && servers.data()} fallback={<div class="card"><Skeleton lines={6} /></div>}>
          <Show
            when={server()}
            fallback={
              <div class="card">
                <Empty
                  icon="server"
                  heading="h2"
                  title={`No server named ${params.name}`}
                  actions={
                    <Button variant="primary" icon="plus" to={`/servers/new?domain=${encodeURIComponent(params.name)}`} disabled={readOnly()} reason={READ_ONLY_REASON}>
                      Add it
                    </Button>
                  }
                >
                  It is not in the registry. It may have been removed, or its sessions came through a server that was never added.
                </Empty>
              </div>
            }
          >
            {(s) => {
              const flow = () => flowSummaryOf(s().flow_summary);
              const env = () => (s().upstream.kind === 'stdio' ? (s().upstream as { env: string[] }).env : []);
              const headers = () => (s().upstream.kind === 'http' ? (s().upstream as { headers: { name: string; env: string }[] }).headers : []);
              return (
                <div classList={{ refreshing: servers.refreshing() }} class="stack">
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
                          name={s().name}
                          env={s().upstream.kind === 'stdio' ? env() : headers().map((h) => h.env)}
                          dataDirShown={dataDir()}
                          jobs={stepJobs({ ...s(), flow_key: flow()?.key ?? null }, meta()?.data_dir ?? '~/.engine', dataDir())}
                        />
                      </Card>
                      <Card title="The proxy’s command line" caption="What the host runs, for every host">
                        <CodeBlock language="shell" wrap what="Command" code={proxyCommand(s().proxy_args, shellQuote)} />
                      </Card>
                    </div>
                    <div class="stack">
                      <Card title="Test connection" caption="Is the server there, and which tools does it list now?">
                        <ProbePanel name={s().name} headers={headers()} />
                      </Card>
                      <Card title="Setup">
                        <dl class="kv">
                          <dt>Upstream</dt>
                          <dd class="mono wrap">{upstreamText(s().upstream)}</dd>
                          <Show when={s().upstream.kind === 'http'}>
                            <dt>Headers</dt>
                            <dd>
                              <Show when={headers().length > 0} fallback={<span class="muted">none</span>}>
                                <For each={headers()}>{(h) => <span class="chip mono">{h.name} ← ${h.env}</span>}</For>
                              </Show>
                            </dd>
                          </Show>
                          <Show when={s().upstream.kind === 'stdio'}>
                            <dt>Variables</dt>
                            <dd>
                              <Show when={env().length > 0} fallback={<span class="muted">none</span>}>
                                <For each={env()}>{(e) => <span class="chip mono">{e}</span>}</For>
                              </Show>
                            </dd>
                          </Show>
                          <dt>Mode</dt>
                          <dd>
                            <ServerModeBadge mode={s().mode} />
                          </dd>
                          <dt>Flow</dt>
                          <dd>
                            <FlowLink server={s()} />
                          </dd>
                          <Show when={s().flow !== null}>
                            <dt>Decider</dt>
                            <dd>{deciderText(s().decider, flow())}</dd>
                            <dt>Threshold</dt>
                            <dd class="num">{thresholdText(s().threshold)}</dd>
                          </Show>
                          <dt>Policy</dt>
                          <dd data-testid="server-policy">
                            <Show when={policyRows(s()).length > 0} fallback={<span class="muted">none: no guards, judge, retention or listening</span>}>
                              <dl class="kv kv-nested">
                                <For each={policyRows(s())}>
                                  {([label, value]) => (
                                    <>
                                      <dt>{label}</dt>
                                      <dd class="wrap">{value}</dd>
                                    </>
                                  )}
                                </For>
                              </dl>
                            </Show>
                          </dd>
                          <dt>Records to</dt>
                          <dd class="mono wrap">
                            {recordsTo(s().proxy_args) ?? (s().record_dir !== null ? shownPath(s().record_dir!, dataDir()) : defaultRecordDir(dataDir(), s().name, s().mode))}
                          </dd>
                          <dt>Sessions</dt>
                          <dd>
                            <A href={`/sessions?domain=${encodeURIComponent(s().name)}`}>{s().sessions}</A>
                            <Show when={s().last_session_unix_ms !== null}>
                              {' '}· last <RelTime ms={s().last_session_unix_ms} />
                            </Show>
                          </dd>
                          <dt>Added</dt>
                          <dd>{formatDateTime(s().created_unix_ms)}</dd>
                          <dt>Changed</dt>
                          <dd>{formatDateTime(s().updated_unix_ms)}</dd>
                        </dl>
                      </Card>
                    </div>
                  </div>
                </div>
              );
            }}
          </Show>
        </Show>
      </Show>
      <Dialog
        open={removing()}
        title={`Remove ${params.name} from the registry?`}
        onClose={() => setRemoving(false)}
        footer={
          <>
            <Button onClick={() => setRemoving(false)}>Cancel</Button>
            <Button variant="danger" icon="trash" loading={busy()} onClick={() => void doRemove()}>
              Remove
            </Button>
          </>
        }
      >
        <p>
          The console forgets this server’s setup. Its sessions and its flow stay in the data dir, and a host that runs it keeps running it
          until you change the host’s configuration.
        </p>
      </Dialog>
    </div>
  );
}
