// One flow as a reviewer reads it: what it does at a threshold (a slider previewed here at once, asked of
// the server 220 ms after it stops; the threshold lives in the URL), its graph of sites and lookups, the
// sites, bindings and tools, the `flow-show` text, the raw file, a comparison with another flow, and the
// staged next version with commit and rollback. Each tab is a part in pages/flow/. A committed version is
// opened at /flows/<flow>/versions/<n>, its file's key found in the flow list. A flow that does not load
// still has its list summary: Download and Delete work on it, Promote and Audit do not.
import ReplayStart from '../components/replay/ReplayStart.tsx';
import '../components/flow/flow.css';
import '../components/session/compare.css';
import { useParams, useSearchParams } from '@solidjs/router';
import { createMemo, createSignal, Match, Show, Switch } from 'solid-js';
import type { FlowDetail, FlowList } from '../../../shared/flows.ts';
import { getFlow, getFlows, getServers } from '../api/endpoints.ts';
import { ApiError } from '../api/client.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Markdown } from '../components/ui/Markdown.tsx';
import { TabPanel, Tabs, type TabDef } from '../components/ui/Tabs.tsx';
import { Card, CopyButton, Notice, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource, type ApiResource } from '../data/createApiResource.ts';
import { flowLabel, versionFromParam, versionKey } from '../lib/flow-address.ts';
import { CompareTab } from './flow/CompareTab.tsx';
import { DeleteFlowDialog } from './flow/DeleteFlowDialog.tsx';
import { EvidenceTab } from './flow/EvidenceTab.tsx';
import { FlowFacts, FlowNotices } from './flow/FlowFacts.tsx';
import { FlowActions, FlowBadges, FlowProvenance } from './flow/FlowHeader.tsx';
import { FlowTab } from './flow/FlowTab.tsx';
import { RawTab } from './flow/RawTab.tsx';
import { StagedTab } from './flow/StagedTab.tsx';
import { servingThresholds, type Serving } from './flow/serving.ts';
import { createFlowThreshold, type FlowThreshold } from './flow/threshold.ts';

type Tab = 'flow' | 'review' | 'raw' | 'compare' | 'staged' | 'evidence';
const TABS: TabDef<Tab>[] = [
  { id: 'flow', label: 'Flow', icon: 'flow' },
  { id: 'review', label: 'Review', icon: 'file-text' },
  { id: 'raw', label: 'Raw JSON', icon: 'table' },
  { id: 'compare', label: 'Compare', icon: 'waypoints' },
  { id: 'staged', label: 'Staged', icon: 'branch' },
  { id: 'evidence', label: 'Evidence', icon: 'sessions' },
];

type FlowSearch = { threshold?: string; tab?: string; compare?: string; site?: string };

export default function FlowPage() {
  const params = useParams<{ key: string; version?: string }>();
  const [search, setSearch] = useSearchParams<FlowSearch>();
  const threshold = createFlowThreshold(
    () => search.threshold,
    (t) => setSearch({ threshold: t }, { replace: true, scroll: false }),
  );
  const tab = (): Tab => (TABS.some((t) => t.id === search.tab) ? (search.tab as Tab) : 'flow');
  const setTab = (t: Tab) => setSearch({ tab: t === 'flow' ? undefined : t, compare: t === 'compare' ? search.compare : undefined }, { replace: true, scroll: false });

  const flows = createApiResource(() => ({}), (_s, signal) => getFlows({ signal }), { topics: ['flows'] });
  const version = () => (params.version === undefined ? null : versionFromParam(params.version));
  /** The file's key: the address's, or the key of the version it names (undefined until the list is in). */
  const fileKey = createMemo((): string | null | undefined => {
    if (params.version === undefined) return params.key;
    const n = version();
    const items = flows.data()?.items;
    if (n === null) return null;
    return items ? versionKey(items, params.key, n) : undefined;
  });
  const detail = createApiResource(
    () => {
      const key = fileKey();
      return key === undefined ? null : { key, threshold: threshold.asked() };
    },
    async (s, signal) => {
      if (s.key === null) throw new ApiError(404, `${params.key} has no committed version ${params.version ?? ''}`);
      return getFlow(s.key, s.threshold, { signal });
    },
    { topics: ['flows', 'servers'], key: (s) => s.key ?? '' },
  );
  const servers = createApiResource(() => ({}), (_s, signal) => getServers({ signal }), { topics: ['servers', 'flows'] });
  /** The list's summary: there for a flow that does not load, too. */
  const listed = () => {
    const key = fileKey();
    return key ? flows.data()?.items.find((f) => f.key === key) : undefined;
  };
  const summary = () => detail.data()?.summary ?? listed();
  const title = () => {
    const n = version();
    if (params.version !== undefined) return n === null ? `${params.key} v${params.version}` : `${params.key} v${n}`;
    const s = summary();
    return s ? flowLabel(s) : params.key;
  };
  const serving = (): Serving[] => {
    const key = fileKey();
    return key ? servingThresholds(servers.data()?.items ?? [], key) : [];
  };
  useTitle(title);
  const [deleting, setDeleting] = createSignal(false);

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/flows', label: 'Flows' }}
        title={title()}
        mono
        meta={<Show when={detail.data()?.summary}>{(s) => <FlowBadges summary={s()} />}</Show>}
        sub={<Show when={detail.data()}>{(d) => <FlowProvenance detail={d()} />}</Show>}
        actions={<FlowActions flowKey={fileKey() ?? params.key} summary={summary()} loads={detail.data() !== undefined} onDelete={() => setDeleting(true)} />}
      />
      <Show when={listed()?.error}>
        {(why) => <BrokenFlowNotice error={why()} />}
      </Show>
      <Loaded
        resource={detail}
        skeleton={<div class="card"><Skeleton lines={6} /></div>}
        errorFrame={(e) => <div class="card">{e}</div>}
        notFoundTitle="No such flow"
        errorTitle="This flow could not be loaded"
      >
        {(d) => (
          <>
            <FlowNotices detail={d()} />
            <FlowFacts detail={d()} />
            <Show when={d().summary.domain}>
              {(domain) => <ReplayStart server={domain()} caption="Is the flow's evidence still true? Its domain's recorded calls, sent again now" />}
            </Show>
            <Tabs prefix="flow" label="Views of the flow" tabs={TABS} value={tab()} onChange={setTab} />
            <TabPanel prefix="flow" id={tab()}>
              <FlowTabs
                tab={tab()}
                flowKey={d().summary.key}
                detail={d()}
                resource={detail}
                flows={flows}
                threshold={threshold}
                serving={serving()}
                search={search}
                setSearch={setSearch}
              />
            </TabPanel>
          </>
        )}
      </Loaded>
      <DeleteFlowDialog open={deleting()} flowKey={fileKey() ?? params.key} summary={summary()} onClose={() => setDeleting(false)} />
    </div>
  );
}

/** Why the page has no tabs: the file is there but does not load. */
function BrokenFlowNotice(props: { error: string }) {
  return (
    <Notice tone="warn" role="status" testid="flow-broken">
      This file does not load as a flow: {props.error}. Download it to look at it, or delete it; promote and audit need a flow that loads.
    </Notice>
  );
}

/** The open tab's content. */
function FlowTabs(props: {
  tab: Tab;
  flowKey: string;
  detail: FlowDetail;
  resource: ApiResource<FlowDetail>;
  flows: ApiResource<FlowList>;
  threshold: FlowThreshold;
  serving: Serving[];
  search: FlowSearch;
  setSearch: (changes: FlowSearch, options: { replace: boolean; scroll: boolean }) => void;
}) {
  const d = () => props.detail;
  return (
    <Switch>
      <Match when={props.tab === 'flow'}>
        <FlowTab
          detail={d()}
          threshold={props.threshold.live()}
          onThreshold={props.threshold.onThreshold}
          refreshing={props.resource.refreshing()}
          serving={props.serving}
        />
      </Match>
      <Match when={props.tab === 'review'}>
        <Card
          title="Review"
          caption={`engine flow-show, at a threshold of ${d().threshold.toFixed(2)}`}
          actions={<CopyButton text={() => d().review_markdown} what="Review text" label="Copy text" size="sm" />}
        >
          <div classList={{ refreshing: props.resource.refreshing() }}>
            <Markdown text={d().review_markdown} shift={2} />
          </div>
        </Card>
      </Match>
      <Match when={props.tab === 'raw'}>
        <RawTab flowKey={props.flowKey} path={d().summary.path} />
      </Match>
      <Match when={props.tab === 'compare'}>
        <Card title="Compare" caption={`engine flow-diff, at a threshold of ${props.threshold.asked().toFixed(2)}`}>
          <Show when={props.flows.data()} fallback={<Skeleton lines={4} />}>
            {(list) => (
              <CompareTab
                flowKey={props.flowKey}
                domain={d().summary.domain}
                flows={list().items}
                threshold={props.threshold.asked()}
                compare={props.search.compare ?? null}
                onCompare={(k) => props.setSearch({ compare: k }, { replace: true, scroll: false })}
              />
            )}
          </Show>
        </Card>
      </Match>
      <Match when={props.tab === 'evidence'}>
        <EvidenceTab flowKey={props.flowKey} site={props.search.site ?? null} />
      </Match>
      <Match when={props.tab === 'staged'}>
        <StagedTab
          flowKey={props.flowKey}
          flows={props.flows.data()?.items}
          onChanged={() => {
            props.resource.refresh();
            props.flows.refresh();
          }}
        />
      </Match>
    </Switch>
  );
}
