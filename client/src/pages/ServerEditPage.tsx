// Add a server, or edit one: the form, prefilled from `?domain=` (and the upstream its sessions came
// through) when adding, or from the registry entry when editing. Saving answers with the server's view;
// the page then shows the server, whose host configuration is ready to paste.
import '../components/server/server.css';
import { useNavigate, useParams, useSearchParams } from '@solidjs/router';
import { createMemo, Show, type JSX } from 'solid-js';
import { ApiError } from '../api/client.ts';
import { createServer, getFlows, getServers, updateServer } from '../api/endpoints.ts';
import ServerForm from '../components/server/ServerForm.tsx';
import { ErrorState, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { createAction } from '../data/createAction.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { emptyForm, fromDiscovered, fromEntry, shownDataDir, toInput, type FormState } from '../lib/server-form.ts';
import { meta } from '../stores/auth.ts';

const inCard = (content: JSX.Element) => <div class="card">{content}</div>;

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

  const save = createAction(
    (form: FormState) => {
      // Editing sends every field the form shows; a field it does not show keeps its value in the registry.
      const body = toInput(form, !isNew());
      return isNew() ? createServer(body) : updateServer(params.name!, body);
    },
    {
      success: (saved) => {
        const renamed = !isNew() && saved.name !== params.name;
        return {
          title: renamed ? `Server ${params.name} renamed to ${saved.name}` : `Server ${saved.name} ${isNew() ? 'added' : 'saved'}`,
          message: renamed ? 'Paste its host configuration again: the host knows it by the new name.' : 'Its host configuration is ready to paste.',
        };
      },
      after: (saved) => navigate(`/servers/${encodeURIComponent(saved.name)}`),
    },
  );
  const submit = async (form: FormState) => {
    await save.run(form);
    // The refusal shows at the top of the form, where the person may not be looking.
    if (save.error() !== null) queueMicrotask(() => document.querySelector<HTMLElement>('.server-form [role="alert"]')?.scrollIntoView({ block: 'center' }));
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
      <Loaded resource={data} skeleton={inCard(<Skeleton lines={8} />)} errorFrame={inCard}>
        {(d) => (
          <Show when={initial()} fallback={inCard(<ErrorState error={missing()} notFoundTitle="No such server" />)}>
            {(init) => (
              <ServerForm
                initial={init()}
                isNew={isNew()}
                taken={d().servers.items.map((s) => s.name).filter((n) => n !== params.name)}
                flows={d().flows}
                dataDirShown={shownDataDir(meta()?.data_dir ?? '~/.engine')}
                dataDir={meta()?.data_dir ?? '~/.engine'}
                busy={save.busy()}
                problem={save.error()}
                cancelTo={isNew() ? '/servers' : `/servers/${encodeURIComponent(params.name!)}`}
                onSubmit={(f) => void submit(f)}
              />
            )}
          </Show>
        )}
      </Loaded>
    </div>
  );
}
