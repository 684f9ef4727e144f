// The session page's tabs: the timeline, the decisions (and the flow's runs), the confirmations when there
// are any, the raw log and the tools. The threshold and the evidence links come from the domain's server.
import { Match, Show, Switch } from 'solid-js';
import type { ServerView } from '../../../../shared/servers.ts';
import type { SessionOutline } from '../../../../shared/session-views.ts';
import { FLOW_THRESHOLD_DEFAULT } from '../../../../shared/limits.ts';
import { Confirmations } from '../../components/session/Confirmations.tsx';
import { DecisionsTable } from '../../components/session/DecisionsTable.tsx';
import { PagedRawLog } from '../../components/session/PagedRawLog.tsx';
import { RunsTable } from '../../components/session/RunsTable.tsx';
import { SessionToolsTable } from '../../components/session/SessionToolsTable.tsx';
import { SessionTimeline } from '../../components/session/Timeline.tsx';
import { TabPanel, Tabs } from '../../components/ui/Tabs.tsx';
import { Card } from '../../components/ui/ui.tsx';
import { siteEvidenceHref } from '../../lib/compare.ts';
import { basename, formatProb } from '../../lib/format.ts';

export type SessionTab = 'timeline' | 'decisions' | 'confirmations' | 'raw' | 'tools';
export const SESSION_TABS: SessionTab[] = ['timeline', 'decisions', 'confirmations', 'raw', 'tools'];

export const hasConfirmations = (o: SessionOutline | undefined) => (o?.summary.has_confirm_log ?? false) || (o?.confirmations.length ?? 0) > 0;

export function SessionTabs(props: { outline: SessionOutline; sessionKey: string; server: ServerView | undefined; tab: SessionTab; onTab: (t: SessionTab) => void }) {
  const d = () => props.outline;
  const threshold = () => props.server?.threshold ?? FLOW_THRESHOLD_DEFAULT;
  // Each decision's site links to the evidence of the flow its domain's server runs.
  const siteHref = () => {
    const flowKey = props.server?.flow_summary?.key ?? null;
    return flowKey === null ? undefined : (site: string) => siteEvidenceHref(flowKey, site);
  };
  return (
    <div>
      <Tabs
        prefix="session"
        label="Views of the session"
        value={props.tab}
        onChange={props.onTab}
        tabs={[
          { id: 'timeline', label: 'Timeline', icon: 'sessions' },
          { id: 'decisions', label: 'Decisions', icon: 'scale', count: d().decisions.length },
          ...(hasConfirmations(d()) ? [{ id: 'confirmations' as const, label: 'Confirmations', icon: 'check' as const, count: d().confirmations.length }] : []),
          { id: 'raw', label: 'Raw log', icon: 'file-text' },
          { id: 'tools', label: 'Tools', icon: 'wrench', count: d().tools.length },
        ]}
      />
      <TabPanel prefix="session" id={props.tab}>
        <Switch>
          <Match when={props.tab === 'timeline'}>
            <Show when={d().decisions.length > 0}>
              <p class="muted">
                Each decision’s value is the lookup’s probability times the chance its bound arguments are the agent’s, against a threshold of{' '}
                <strong>{formatProb(threshold())}</strong>
                {props.server?.threshold != null ? `, the threshold server ${props.server.name} sets now` : ', the proxy’s default (--flow-threshold 0.3)'}; a
                hand-back whose reason names the threshold it was decided at is drawn against that one.
              </p>
            </Show>
            <SessionTimeline outline={d()} sessionKey={props.sessionKey} threshold={threshold()} />
          </Match>
          <Match when={props.tab === 'decisions'}>
            <Card flush label="Decisions">
              <DecisionsTable detail={d()} threshold={threshold()} siteHref={siteHref()} />
            </Card>
            <Show when={d().runs.length > 0}>
              <Card flush title="Flow runs" caption="After each of the agent’s calls the flow ran: the sites it visited and how surprised it was">
                <RunsTable detail={d()} />
              </Card>
            </Show>
          </Match>
          <Match when={props.tab === 'confirmations'}>
            <Confirmations items={d().confirmations} />
          </Match>
          <Match when={props.tab === 'raw'}>
            <PagedRawLog events={d().events} sessionKey={props.sessionKey} fileName={basename(d().summary.path)} sizeBytes={d().summary.size_bytes} />
          </Match>
          <Match when={props.tab === 'tools'}>
            <Card flush label="Tools">
              <SessionToolsTable tools={d().tools} />
            </Card>
          </Match>
        </Switch>
      </TabPanel>
    </div>
  );
}
