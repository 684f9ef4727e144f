// One flow as a reviewer reads it: what it does at a threshold (a slider previewed here at once, asked of
// the server 220 ms after it stops; the threshold lives in the URL), its graph of sites and lookups, the
// sites, bindings and tools, the `flow-show` text, the raw file, a comparison with another flow, and the
// staged next version with commit and rollback. Each tab is a part in pages/flow/.
import ReplayStart from '../components/replay/ReplayStart.tsx';
import '../components/flow/flow.css';
import '../components/session/compare.css';
import { useParams, useSearchParams } from '@solidjs/router';
import { createSignal, Match, Show, Switch } from 'solid-js';
import type { FlowDetail, FlowList } from '../../../shared/flows.ts';
import { getFlow, getFlows } from '../api/endpoints.ts';
import { Loaded } from '../components/ui/Loaded.tsx';
import { Markdown } from '../components/ui/Markdown.tsx';
import { TabPanel, Tabs, type TabDef } from '../components/ui/Tabs.tsx';
import { Card, PageHeader, Skeleton } from '../components/ui/ui.tsx';
import { useTitle } from '../components/ui/title.ts';
import { createApiResource, type ApiResource } from '../data/createApiResource.ts';
import { CompareTab } from './flow/CompareTab.tsx';
import { DeleteFlowDialog } from './flow/DeleteFlowDialog.tsx';
import { EvidenceTab } from './flow/EvidenceTab.tsx';
import { FlowFacts, FlowNotices } from './flow/FlowFacts.tsx';
import { FlowActions, FlowBadges, FlowProvenance } from './flow/FlowHeader.tsx';
import { FlowTab } from './flow/FlowTab.tsx';
import { RawTab } from './flow/RawTab.tsx';
import { StagedTab } from './flow/StagedTab.tsx';
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
  const params = useParams<{ key: string }>();
  const [search, setSearch] = useSearchParams<FlowSearch>();
  const threshold = createFlowThreshold(
    () => search.threshold,
    (t) => setSearch({ threshold: t }, { replace: true, scroll: false }),
  );
  const tab = (): Tab => (TABS.some((t) => t.id === search.tab) ? (search.tab as Tab) : 'flow');
  const setTab = (t: Tab) => setSearch({ tab: t === 'flow' ? undefined : t, compare: t === 'compare' ? search.compare : undefined }, { replace: true, scroll: false });

  const detail = createApiResource(
    () => ({ key: params.key, threshold: threshold.asked() }),
    (s, signal) => getFlow(s.key, s.threshold, { signal }),
    { topics: ['flows', 'servers'], key: (s) => s.key },
  );
  const flows = createApiResource(() => ({}), (_s, signal) => getFlows({ signal }), { topics: ['flows'] });
  const summary = () => detail.data()?.summary;
  useTitle(() => params.key);
  const [deleting, setDeleting] = createSignal(false);

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/flows', label: 'Flows' }}
        title={params.key}
        mono
        meta={<Show when={summary()}>{(s) => <FlowBadges summary={s()} />}</Show>}
        sub={<Show when={detail.data()}>{(d) => <FlowProvenance detail={d()} />}</Show>}
        actions={<FlowActions flowKey={params.key} summary={summary()} onDelete={() => setDeleting(true)} />}
      />
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
              <FlowTabs tab={tab()} flowKey={params.key} detail={d()} resource={detail} flows={flows} threshold={threshold} search={search} setSearch={setSearch} />
            </TabPanel>
          </>
        )}
      </Loaded>
      <DeleteFlowDialog open={deleting()} flowKey={params.key} summary={summary()} onClose={() => setDeleting(false)} />
    </div>
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
  search: FlowSearch;
  setSearch: (changes: FlowSearch, options: { replace: boolean; scroll: boolean }) => void;
}) {
  const d = () => props.detail;
  return (
    <Switch>
      <Match when={props.tab === 'flow'}>
        <FlowTab detail={d()} threshold={props.threshold.live()} onThreshold={props.threshold.onThreshold} refreshing={props.resource.refreshing()} />
      </Match>
      <Match when={props.tab === 'review'}>
        <Card title="Review" caption={`engine flow-show, at a threshold of ${d().threshold.toFixed(2)}`}>
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
