// One flow as a reviewer reads it: what it does at a threshold (a slider previewed here at once, asked of
// the server 220 ms after it stops; the threshold lives in the URL), its graph of sites and lookups, the
// sites, bindings and tools, the `flow-show` text, the raw file, a comparison with another flow, and the
// staged next version with commit and rollback.
import '../components/flow/flow.css';
import { A, useNavigate, useParams, useSearchParams } from '@solidjs/router';
import { createEffect, createMemo, createSignal, For, Match, on, onCleanup, Show, Switch } from 'solid-js';
import type { FlowDetail, FlowSummary } from '../../../shared/flows.ts';
import { ApiError } from '../api/client.ts';
import { deleteFlow, flowRawUrl, getFlow, getFlowRaw, getFlows } from '../api/endpoints.ts';
import BindingsList from '../components/flow/BindingsList.tsx';
import FlowCompare from '../components/flow/FlowCompare.tsx';
import FlowGraph from '../components/flow/FlowGraph.tsx';
import FlowStage from '../components/flow/FlowStage.tsx';
import FlowToolsTable from '../components/flow/FlowToolsTable.tsx';
import SitesTable from '../components/flow/SitesTable.tsx';
import FlowEvidence from '../components/flow/FlowEvidence.tsx';
import '../components/session/compare.css';
import ThresholdSlider from '../components/flow/ThresholdSlider.tsx';
import { Dialog } from '../components/ui/Dialog.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { Term } from '../components/ui/Term.tsx';
import { JsonTree } from '../components/ui/JsonTree.tsx';
import { Markdown } from '../components/ui/Markdown.tsx';
import { TabPanel, Tabs, type TabDef } from '../components/ui/Tabs.tsx';
import { Button, Card, ErrorState, Notice, PageHeader, RichText, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource } from '../data/createApiResource.ts';
import { actingCount, previewSites, thresholdFromParam, thresholdParam } from '../lib/flow-graph.ts';
import { basename, formatBytes, formatDateTime } from '../lib/format.ts';
import { deciderSentence, deciderTitle, joinWords, plural, toolCountsText } from '../lib/flow-words.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { toast } from '../stores/toasts.ts';
import { deletedToast } from '../lib/undo-delete.ts';
import { errorText } from '../../../shared/error-text.ts';

type Tab = 'flow' | 'review' | 'raw' | 'compare' | 'staged' | 'evidence';
const TABS: TabDef<Tab>[] = [
  { id: 'flow', label: 'Flow', icon: 'flow' },
  { id: 'review', label: 'Review', icon: 'file-text' },
  { id: 'raw', label: 'Raw JSON', icon: 'table' },
  { id: 'compare', label: 'Compare', icon: 'waypoints' },
  { id: 'staged', label: 'Staged', icon: 'branch' },
  { id: 'evidence', label: 'Evidence', icon: 'sessions' },
];
const ASK_AFTER_MS = 220;

function ServedBy(props: { names: string[] }) {
  return (
    <Show when={props.names.length > 0} fallback={<span class="muted">no server</span>}>
      <For each={props.names}>
        {(name, i) => (
          <>
            {i() > 0 ? ', ' : ''}
            <A href={`/servers/${encodeURIComponent(name)}`} class="mono icon-link">
              <Icon name="server" size={14} /> <span>{name}</span>
            </A>
          </>
        )}
      </For>
    </Show>
  );
}

function RawTab(props: { flowKey: string; path: string }) {
  const raw = createApiResource(
    () => props.flowKey,
    async (key, signal) => {
      const text = await getFlowRaw(key, { signal });
      try {
        return JSON.parse(text) as unknown;
      } catch (e) {
        throw new ApiError(422, `${props.path} is not JSON: ${errorText(e)}`);
      }
    },
    { topics: ['flows'], key: (k) => k },
  );
  return (
    <Card title="Raw JSON" caption="The file as it is on disk">
      <Show when={!raw.error()} fallback={<ErrorState error={raw.error()!} retry={raw.refetch} />}>
        <Show when={!raw.loading() && raw.data() !== undefined} fallback={<Skeleton lines={8} />}>
          <JsonTree value={raw.data()} label={props.path} depth={1} maxHeight={640} what="Flow" />
        </Show>
      </Show>
    </Card>
  );
}

function FlowTab(props: { detail: FlowDetail; threshold: number; onThreshold: (t: number) => void; refreshing: boolean }) {
  const d = () => props.detail;
  const previews = createMemo(() => previewSites(d().sites, d().threshold, props.threshold));
  const counts = () => actingCount(previews());
  const promoted = () => d().promotion !== null || d().summary.promoted !== null;
  return (
    <div class="stack">
      <Card
        title="What it does at a threshold"
        caption={
          <>
            The flow takes the likeliest lookup when its share, times the chance its bound arguments are the agent’s, reaches the threshold
            the proxy serves it with (<code>--flow-threshold</code>).
          </>
        }
      >
        <ThresholdSlider value={props.threshold} onInput={props.onThreshold} promotedAt={d().promotion?.bar.threshold ?? null} />
        <p class="acting" data-testid="acting" aria-live="polite">
          <Icon name="scale" /> At <strong>{props.threshold.toFixed(2)}</strong> the flow looks something up after{' '}
          <strong>{counts().acting}</strong> of its <strong>{counts().sites}</strong> {counts().sites === 1 ? 'site' : 'sites'}
          {promoted() ? ', where promoted' : ''}, and hands back after the rest.
        </p>
        <Show
          when={d().sites.length > 0}
          fallback={<p class="muted">This flow has no sites: training saw no lookup after any call, so it always hands back.</p>}
        >
          <FlowGraph previews={previews()} tools={d().tools} />
        </Show>
      </Card>
      <Show when={d().sites.length > 0}>
        <Card title="Sites" caption="After each call, the lookups the flow may make next" flush>
          <div classList={{ refreshing: props.refreshing }}>
            <SitesTable previews={previews()} sites={d().sites} promoted={promoted()} flowKey={d().summary.key} />
          </div>
        </Card>
      </Show>
      <div classList={{ 'cards-2': d().promotion !== null, stack: d().promotion === null }}>
        <Card title={<Term word="binding">Bindings</Term>} caption="Where each lookup’s arguments come from, in training">
          <BindingsList bindings={d().bindings} />
        </Card>
        <Show when={d().promotion}>
          {(p) => (
            <Card title="Promotion" caption="The bar engine promote held each site to">
              <dl class="kv">
                <dt>Threshold</dt>
                <dd class="num">{p().bar.threshold}</dd>
                <dt>Least share used</dt>
                <dd class="num">{Math.round(p().bar.min_used * 100)}%</dd>
                <dt>Least lower bound</dt>
                <dd class="num">{p().bar.min_lower.toFixed(2)} (Wilson, 90% two-sided)</dd>
                <dt>Fewest tasks</dt>
                <dd class="num">{p().bar.min_tasks}</dd>
                <dt>Promoted</dt>
                <dd>
                  {p().sites_promoted} of the {plural(p().sites_scored, 'site')} scored
                </dd>
              </dl>
            </Card>
          )}
        </Show>
      </div>
      <Card title="Tools" caption="The domain’s tools, from the servers’ readOnlyHint: the flow calls only reads" flush>
        <FlowToolsTable tools={d().tools} />
      </Card>
    </div>
  );
}

export default function FlowPage() {
  const params = useParams<{ key: string }>();
  const [search, setSearch] = useSearchParams<{ threshold?: string; tab?: string; compare?: string; site?: string }>();
  const navigate = useNavigate();

  /** What the slider shows now; `asked` follows it 220 ms after it stops, and is what the server answers. */
  const [live, setLive] = createSignal(thresholdFromParam(search.threshold));
  const [asked, setAsked] = createSignal(live());
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  const onThreshold = (t: number) => {
    setLive(t);
    clearTimeout(timer);
    timer = setTimeout(() => {
      setAsked(t);
      setSearch({ threshold: thresholdParam(t) }, { replace: true, scroll: false });
    }, ASK_AFTER_MS);
  };
  // Back/forward or a link that changes ?threshold= moves the slider too.
  createEffect(
    on(
      () => search.threshold,
      (p) => {
        const t = thresholdFromParam(p);
        if (Math.abs(t - asked()) > 1e-9) {
          clearTimeout(timer);
          setLive(t);
          setAsked(t);
        }
      },
      { defer: true },
    ),
  );

  const tab = (): Tab => (TABS.some((t) => t.id === search.tab) ? (search.tab as Tab) : 'flow');
  const setTab = (t: Tab) => setSearch({ tab: t === 'flow' ? undefined : t, compare: t === 'compare' ? search.compare : undefined }, { replace: true, scroll: false });

  const detail = createApiResource(
    () => ({ key: params.key, threshold: asked() }),
    (s, signal) => getFlow(s.key, s.threshold, { signal }),
    { topics: ['flows', 'servers'], key: (s) => s.key },
  );
  const flows = createApiResource(() => ({}), (_s, signal) => getFlows({ signal }), { topics: ['flows'] });
  const summary = (): FlowSummary | undefined => detail.data()?.summary;

  useTitle(() => params.key);

  const [deleting, setDeleting] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const doDelete = async () => {
    setBusy(true);
    try {
      const path = summary()?.path ?? '';
      const gone = params.key;
      await deleteFlow(gone);
      setDeleting(false);
      deletedToast('Flow', path, () => navigate(`/flows/${encodeURIComponent(gone)}`));
      navigate('/flows');
    } catch (e) {
      toast({ kind: 'error', title: 'Could not delete the flow', message: (e as ApiError).message });
    } finally {
      setBusy(false);
    }
  };

  const badges = () => {
    const s = summary();
    if (!s) return null;
    return (
      <span class="badges">
        <span class="badge mono" title={deciderTitle(s.decider)}>
          {s.decider}
        </span>
        <Term word={s.decider}>
          <span class="sr-only">decider</span>
        </Term>
        <Show when={s.promoted}>
          {(p) => (
            <>
              <span class="badge accent" title={`Acts at ${p().sites_promoted} of the ${p().sites_scored} calls promote scored`}>
                promoted {p().sites_promoted}/{p().sites_scored}
              </span>
              <Term word="promoted">
                <span class="sr-only">promoted</span>
              </Term>
            </>
          )}
        </Show>
      </span>
    );
  };

  const sub = () => {
    const d = detail.data();
    if (!d) return undefined;
    const s = d.summary;
    return (
      <>
        Domain <code>{s.domain}</code>. Learned by engine {d.provenance.engine} from {plural(s.habit_episodes, 'session')} of{' '}
        {joinWords(s.sources, 'no named source')}, on {formatDateTime(s.compiled_unix_ms)}. {deciderSentence(s.decider, s.arbiter_cases)}
      </>
    );
  };

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/flows', label: 'Flows' }}
        title={params.key}
        mono
        meta={badges()}
        sub={sub()}
        actions={
          <>
            <Button icon="download" href={flowRawUrl(params.key)} download={basename(summary()?.path ?? `${params.key}.flow.json`)}>
              Download
            </Button>
            <Button icon="badge" to={`/jobs/new?kind=promote&flow=${encodeURIComponent(params.key)}`} disabled={readOnly()} reason={READ_ONLY_REASON}>
              Promote
            </Button>
            <Button icon="file-search" to={`/jobs/new?kind=audit&flow=${encodeURIComponent(params.key)}`} disabled={readOnly()} reason={READ_ONLY_REASON}>
              Audit
            </Button>
            <Button
              variant="danger"
              icon="trash"
              square
              label="Delete the flow"
              title="Delete the flow"
              disabled={readOnly() || !summary()}
              reason={readOnly() ? READ_ONLY_REASON : undefined}
              onClick={() => setDeleting(true)}
            />
          </>
        }
      />
      <Show
        when={!detail.error()}
        fallback={
          <div class="card">
            <ErrorState error={detail.error()!} notFoundTitle="No such flow" title="This flow could not be loaded" retry={detail.refetch} />
          </div>
        }
      >
        <Show when={!detail.loading() && detail.data()} fallback={<div class="card"><Skeleton lines={6} /></div>}>
          {(d) => (
            <>
              <For each={d().warnings}>
                {(w) => (
                  <Notice tone="warn" role="status">
                    <RichText text={w} />
                  </Notice>
                )}
              </For>
              <Show when={d().summary.stage?.staged}>
                <Notice tone="info" role="status" testid="staged-of">
                  <Show when={d().summary.stage?.other} fallback={<>A staged flow, never committed.</>}>
                    {(other) => (
                      <>
                        The staged flow of{' '}
                        <A href={`/flows/${encodeURIComponent(other())}?tab=staged`} class="mono">
                          {other()}
                        </A>
                      </>
                    )}
                  </Show>
                </Notice>
              </Show>
              <Show when={d().summary.version_of}>
                {(v) => (
                  <Notice tone="info" role="status" testid="version-of">
                    Version {v().version} of{' '}
                    <Show when={v().flow} fallback={<span class="mono">{v().name}</span>}>
                      {(of) => (
                        <A href={`/flows/${encodeURIComponent(of())}?tab=staged`} class="mono">
                          {of()}
                        </A>
                      )}
                    </Show>
                    , as it was committed: kept in <code>{v().name}.history/</code>. Roll back to it from its flow’s Staged › Versions.
                  </Notice>
                )}
              </Show>
              <section class="facts" aria-label="The flow in numbers">
                <div class="fact">
                  <span class="fact-label">Sites</span>
                  <span class="fact-value num">{d().summary.sites}</span>
                  <span class="fact-hint">calls it decides after</span>
                </div>
                <div class="fact">
                  <span class="fact-label">Lookups</span>
                  <span class="fact-value num">{d().summary.lookups}</span>
                  <span class="fact-hint">distinct tools it may read</span>
                </div>
                <div class="fact">
                  <span class="fact-label">Tools</span>
                  <span class="fact-value num">{toolCountsText({ ...d().summary.tools, generic: 0 })}</span>
                  <span class="fact-hint">
                    {d().summary.tools.generic > 0 ? `${d().summary.tools.generic} neither; ` : ''}it calls reads only
                  </span>
                </div>
                <div class="fact">
                  <span class="fact-label">Served by</span>
                  <span class="fact-value fact-value-sm">
                    <ServedBy names={d().summary.served_by} />
                  </span>
                  <span class="fact-hint mono wrap">
                    {d().summary.path} · {formatBytes(d().summary.size_bytes)}
                  </span>
                </div>
              </section>
              <Tabs prefix="flow" label="Views of the flow" tabs={TABS} value={tab()} onChange={setTab} />
              <TabPanel prefix="flow" id={tab()}>
                <Switch>
                  <Match when={tab() === 'flow'}>
                    <FlowTab detail={d()} threshold={live()} onThreshold={onThreshold} refreshing={detail.refreshing()} />
                  </Match>
                  <Match when={tab() === 'review'}>
                    <Card title="Review" caption={`engine flow-show, at a threshold of ${d().threshold.toFixed(2)}`}>
                      <div classList={{ refreshing: detail.refreshing() }}>
                        <Markdown text={d().review_markdown} shift={2} />
                      </div>
                    </Card>
                  </Match>
                  <Match when={tab() === 'raw'}>
                    <RawTab flowKey={params.key} path={d().summary.path} />
                  </Match>
                  <Match when={tab() === 'compare'}>
                    <Card title="Compare" caption={`engine flow-diff, at a threshold of ${asked().toFixed(2)}`}>
                      <Show when={flows.data()} fallback={<Skeleton lines={4} />}>
                        {(list) => (
                          <FlowCompare
                            flowKey={params.key}
                            domain={d().summary.domain}
                            flows={list().items}
                            threshold={asked()}
                            compare={search.compare ?? null}
                            onCompare={(k) => setSearch({ compare: k }, { replace: true, scroll: false })}
                          />
                        )}
                      </Show>
                    </Card>
                  </Match>
                  <Match when={tab() === 'evidence'}>
                    <FlowEvidence flowKey={params.key} site={search.site ?? null} />
                  </Match>
                  <Match when={tab() === 'staged'}>
                    <FlowStage
                      flowKey={params.key}
                      flows={flows.data()?.items}
                      onChanged={() => {
                        detail.refresh();
                        flows.refresh();
                      }}
                    />
                  </Match>
                </Switch>
              </TabPanel>
            </>
          )}
        </Show>
      </Show>
      <Dialog
        open={deleting()}
        title="Delete this flow?"
        onClose={() => setDeleting(false)}
        footer={
          <>
            <Button onClick={() => setDeleting(false)}>Cancel</Button>
            <Button variant="danger" icon="trash" loading={busy()} onClick={() => void doDelete()}>
              Move to the trash
            </Button>
          </>
        }
      >
        <p>
          <code>{summary()?.path}</code> moves to <code>console/trash</code> in the data dir.
          <Show when={(summary()?.served_by.length ?? 0) > 0}>
            {' '}Server {joinWords(summary()!.served_by, '')} {summary()!.served_by.length === 1 ? 'runs' : 'run'} it: its proxy will not
            start with the flow gone.
          </Show>
        </p>
      </Dialog>
    </div>
  );
}
