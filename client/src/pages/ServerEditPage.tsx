// Add a server, or edit one: the form, prefilled from `?domain=` (and the upstream its sessions came
// through) when adding, or from the registry entry when editing. Saving answers with the server's view;
// the page then shows the server, whose host configuration is ready to paste.
import '../components/server/server.css';
import { useNavigate, useParams, useSearchParams } from '@solidjs/router';
import { createMemo, createSignal, Show } from 'solid-js';
import { ApiError } from '../api/client.ts';
import { createServer, getFlows, getServers, updateServer } from '../api/endpoints.ts';
import ServerForm from '../components/server/ServerForm.tsx';
import { ErrorState, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { emptyForm, fromDiscovered, fromEntry, shownDataDir, toInput, type FormState } from '../lib/server-form.ts';
import { meta } from '../stores/auth.ts';
import { toast } from '../stores/toasts.ts';

export default function ServerEditPage() {
  const params = useParams<{ name?: string }>();
  const [search] = useSearchParams<{ domain?: string }>();
  const navigate = useNavigate();
  const isNew = () => params.name === undefined;
  useTitle(() => (isNew() ? 'Add a server' : `Edit ${params.name}`));

  const data = createApiResource(
    () => ({}),
    async (_s, signal) => {
      const [servers, flows] = await Promise.all([getServers({ signal }), getFlows({ signal }).catch(() => ({ items: [] }))]);
      return { servers, flows: flows.items };
    },
  );

  const initial = createMemo<FormState | null>(() => {
    const d = data.data();
    if (!d) return null;
    if (!isNew()) {
      const entry = d.servers.items.find((s) => s.name === params.name);
      return entry ? fromEntry(entry) : null;
    }
    const domain = search.domain?.trim();
    if (!domain) return emptyForm();
    const seen = d.servers.discovered.find((u) => u.domain === domain);
    return fromDiscovered(domain, seen?.upstream ?? null);
  });

  const [busy, setBusy] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const save = async (form: FormState) => {
    setBusy(true);
    setProblem(null);
    // Editing sends every field the form shows; a field it does not show keeps its value in the registry.
    const body = toInput(form, !isNew());
    const renamed = !isNew() && body.name !== params.name;
    try {
      if (isNew()) await createServer(body);
      else await updateServer(params.name!, body);
      toast({
        kind: 'success',
        title: renamed ? `Server ${params.name} renamed to ${body.name}` : `Server ${body.name} ${isNew() ? 'added' : 'saved'}`,
        message: renamed ? 'Paste its host configuration again: the host knows it by the new name.' : 'Its host configuration is ready to paste.',
      });
      navigate(`/servers/${encodeURIComponent(body.name)}`);
    } catch (e) {
      setProblem((e as ApiError).message);
      queueMicrotask(() => document.querySelector<HTMLElement>('.server-form [role="alert"]')?.scrollIntoView({ block: 'center' }));
    } finally {
      setBusy(false);
    }
  };

  const missing = () => new ApiError(404, `There is no server named ${params.name} to edit.`);
  return (
    <div class="page narrow">
      <PageHeader
        back={isNew() ? { to: '/servers', label: 'Servers' } : { to: `/servers/${encodeURIComponent(params.name!)}`, label: params.name! }}
        title={isNew() ? 'Add a server' : `Edit ${params.name}`}
        sub={
          isNew()
            ? 'The console keeps the setup in servers.json in the data dir, and gives you each host’s configuration, with engine-proxy in front.'
            : 'Changes apply to the configuration the console gives each host: paste it again after saving.'
        }
      />
      <Show when={!data.error()} fallback={<div class="card"><ErrorState error={data.error()!} retry={data.refetch} /></div>}>
        <Show when={!data.loading() && data.data()} fallback={<div class="card"><Skeleton lines={8} /></div>}>
          {(d) => (
            <Show when={initial()} fallback={<div class="card"><ErrorState error={missing()} notFoundTitle="No such server" /></div>}>
              {(init) => (
                <ServerForm
                  initial={init()}
                  isNew={isNew()}
                  taken={d().servers.items.map((s) => s.name).filter((n) => n !== params.name)}
                  flows={d().flows}
                  dataDirShown={shownDataDir(meta()?.data_dir ?? '~/.engine')}
                  dataDir={meta()?.data_dir ?? '~/.engine'}
                  busy={busy()}
                  problem={problem()}
                  cancelTo={isNew() ? '/servers' : `/servers/${encodeURIComponent(params.name!)}`}
                  onSubmit={(f) => void save(f)}
                />
              )}
            </Show>
          )}
        </Show>
      </Show>
    </div>
  );
}
