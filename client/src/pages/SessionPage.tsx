// One session: its header and numbers, then tabs for the timeline (turns, calls, the flow's lookups and
// decisions, the conversation), the decisions table, the raw log and the tools. Download, and delete to the
// trash with a confirmation.
import { A, useNavigate, useParams, useSearchParams } from '@solidjs/router';
import { createSignal, Match, Show, Switch } from 'solid-js';
import { FLOW_THRESHOLD_DEFAULT } from '../../../shared/limits.ts';
import { deleteSession, getServers, getSessionOutline, sessionRawUrl } from '../api/endpoints.ts';
import { CompareWithRecorded } from '../components/session/CompareButton.tsx';
import { siteEvidenceHref } from '../lib/compare.ts';
import { Confirmations } from '../components/session/Confirmations.tsx';
import { DecisionsTable } from '../components/session/DecisionsTable.tsx';
import { RunsTable } from '../components/session/RunsTable.tsx';
import { SessionToolsTable } from '../components/session/SessionToolsTable.tsx';
import { PagedRawLog } from '../components/session/PagedRawLog.tsx';
import { SessionTimeline } from '../components/session/Timeline.tsx';
import { Dialog } from '../components/ui/Dialog.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { TabPanel, Tabs } from '../components/ui/Tabs.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, ErrorState, ModeBadge, Notice, PageHeader, Skeleton, Stat } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { basename, formatBytes, formatDateTime, formatDuration, formatProb } from '../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { toast } from '../stores/toasts.ts';
import { deletedToast } from '../lib/undo-delete.ts';
import { errorText } from '../../../shared/error-text.ts';

type Tab = 'timeline' | 'decisions' | 'confirmations' | 'raw' | 'tools';
const TABS: Tab[] = ['timeline', 'decisions', 'confirmations', 'raw', 'tools'];

function upstreamText(u: { kind: 'stdio'; command: string[] } | { kind: 'http'; url: string }): string {
  if (u.kind === 'http') return u.url;
  return u.command.map((w) => (/^[A-Za-z0-9\-_./:=@%+,~]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export default function SessionPage() {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const key = () => params.key ?? '';
  // The outline, not the whole session: a big log's payloads come only when a call is opened.
  const res = createApiResource(key, (k, signal) => getSessionOutline(k, { signal }), { topics: ['sessions'], key: (k) => k });
  const servers = createApiResource(
    () => true,
    (_s, signal) => getServers({ signal }),
    { topics: ['servers'] },
  );
  const d = () => res.data();
  const s = () => d()?.summary;
  useTitle(() => s()?.session_id ?? 'Session');

  const tabParam = () => (Array.isArray(search.tab) ? search.tab[0] : search.tab) ?? '';
  const hasConfirmations = () => (s()?.has_confirm_log ?? false) || (d()?.confirmations.length ?? 0) > 0;
  const tab = (): Tab => {
    const t = TABS.includes(tabParam() as Tab) ? (tabParam() as Tab) : 'timeline';
    return t === 'confirmations' && !hasConfirmations() ? 'timeline' : t;
  };
  const setTab = (t: Tab) => setSearch({ tab: t === 'timeline' ? undefined : t }, { replace: true, scroll: false });

  // The first hand-back whose reason names the surprise gate, for the notice.
  const surprise = () => d()?.decisions.find((x) => x.action === 'hand_back' && x.reason !== null && /surpris|nats/i.test(x.reason)) as
    | { after: string; reason: string }
    | undefined;
  const server = () => servers.data()?.items.find((x) => x.name === s()?.domain);
  const threshold = () => server()?.threshold ?? FLOW_THRESHOLD_DEFAULT;
  // Each decision's site links to the evidence of the flow its domain's server runs.
  const flowKey = () => server()?.flow_summary?.key ?? null;
  const siteHref = () => (flowKey() === null ? undefined : (site: string) => siteEvidenceHref(flowKey()!, site));

  const [confirm, setConfirm] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const remove = async () => {
    setBusy(true);
    try {
      const path = s()?.path ?? '';
      const gone = key();
      await deleteSession(gone);
      setConfirm(false);
      deletedToast('Session', path, () => navigate(`/sessions/${encodeURIComponent(gone)}`));
      navigate('/sessions');
    } catch (e) {
      toast({ kind: 'error', title: 'Could not delete the session', message: errorText(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/sessions', label: 'Sessions' }}
        title={s()?.session_id ?? key()}
        mono
        meta={
          <Show when={s()}>
            <ModeBadge mode={s()!.mode} />
            <Show when={s()!.domain}>
              <A class="mono" href={`/sessions?domain=${encodeURIComponent(s()!.domain!)}`}>
                {s()!.domain}
              </A>
            </Show>
            <Show when={s()!.agent}>
              <span>
                <Icon name="bot" /> {s()!.agent}
              </span>
            </Show>
            <span>
              {formatDateTime(s()!.started_unix_ms)} · {formatDuration(s()!.duration_ms)}
            </span>
            <span class="subtle">{formatBytes(s()!.size_bytes)}</span>
          </Show>
        }
        sub={
          <Show when={s()?.upstream}>
            Server: <code>{upstreamText(s()!.upstream!)}</code> · <code>{s()!.path}</code>
          </Show>
        }
        actions={
          <>
            <Show when={s()?.mode === 'served'}>
              <CompareWithRecorded summary={s()!} />
            </Show>
            <Button icon="download" href={sessionRawUrl(key())} download={`${s()?.session_id ?? key()}.jsonl`} disabled={!s()}>
              Download
            </Button>
            <Button icon="trash" variant="danger" disabled={readOnly() || !s()} reason={readOnly() ? READ_ONLY_REASON : 'Loading'} onClick={() => setConfirm(true)}>
              Delete
            </Button>
          </>
        }
      />
      <Show when={!res.error()} fallback={<Card label="Session"><ErrorState error={res.error()!} notFoundTitle="No such session" retry={res.refetch} /></Card>}>
        <Show when={d()} fallback={<Skeleton lines={8} height={20} />}>
          <Show when={s()!.surprised}>
            <Notice tone="warn" role="status" icon="zap" testid="surprised-notice">
              <Show
                when={surprise()}
                fallback={<>The session surprised the flow: its surprise gate handed back, and from there the flow handed back after every call.</>}
              >
                The session surprised the flow after call <code>{surprise()!.after}</code>: {surprise()!.reason}. From there the flow handed back after every call.
              </Show>
            </Notice>
          </Show>
          <section aria-label="Numbers for this session" class={`stats six${res.refreshing() ? ' refreshing' : ''}`}>
            <Stat label="Tool calls" value={s()!.tool_calls} caption="the agent’s own" />
            <Stat label="LLM turns" value={s()!.llm_turns} caption="inferred from timing" />
            <Show when={s()!.mode === 'shadow'} fallback={<Stat label="Lookups" value={s()!.flow_lookups} caption="read ahead by the flow" accent />}>
              <Stat label="In shadow" value={s()!.shadow_lookups} caption="lookups decided, none made" />
            </Show>
            <Stat label="Hand-backs" value={s()!.hand_backs} caption="the flow’s decisions to stop" />
            <Stat label="Errors" value={s()!.errors} caption="failed calls" />
            <Stat label="Writes" value={s()!.writes} caption="calls to write tools" />
          </section>
          <div>
            <Tabs
              prefix="session"
              label="Views of the session"
              value={tab()}
              onChange={setTab}
              tabs={[
                { id: 'timeline', label: 'Timeline', icon: 'sessions' },
                { id: 'decisions', label: 'Decisions', icon: 'scale', count: d()!.decisions.length },
                ...(hasConfirmations()
                  ? [{ id: 'confirmations' as const, label: 'Confirmations', icon: 'check' as const, count: d()!.confirmations.length }]
                  : []),
                { id: 'raw', label: 'Raw log', icon: 'file-text' },
                { id: 'tools', label: 'Tools', icon: 'wrench', count: d()!.tools.length },
              ]}
            />
            <TabPanel prefix="session" id={tab()}>
              <Switch>
                <Match when={tab() === 'timeline'}>
                  <Show when={d()!.decisions.length > 0}>
                    <p class="muted">
                      Each decision’s value is the lookup’s probability times the chance its bound arguments are the agent’s, against a threshold of{' '}
                      <strong>{formatProb(threshold())}</strong>
                      {server()?.threshold != null ? `, the threshold server ${server()!.name} sets.` : ', the proxy’s default (--flow-threshold 0.3).'}
                    </p>
                  </Show>
                  <SessionTimeline outline={d()!} sessionKey={key()} threshold={threshold()} />
                </Match>
                <Match when={tab() === 'decisions'}>
                  <Card flush label="Decisions">
                    <DecisionsTable detail={d()!} threshold={threshold()} siteHref={siteHref()} />
                  </Card>
                  <Show when={d()!.runs.length > 0}>
                    <Card flush title="Flow runs" caption="After each of the agent’s calls the flow ran: the sites it visited and how surprised it was">
                      <RunsTable detail={d()!} />
                    </Card>
                  </Show>
                </Match>
                <Match when={tab() === 'confirmations'}>
                  <Confirmations items={d()!.confirmations} />
                </Match>
                <Match when={tab() === 'raw'}>
                  <PagedRawLog events={d()!.events} sessionKey={key()} fileName={basename(s()!.path)} sizeBytes={s()!.size_bytes} />
                </Match>
                <Match when={tab() === 'tools'}>
                  <Card flush label="Tools">
                    <SessionToolsTable tools={d()!.tools} />
                  </Card>
                </Match>
              </Switch>
            </TabPanel>
          </div>
        </Show>
      </Show>
      <Dialog
        open={confirm()}
        title="Delete this session?"
        description={
          <>
            The log and its flow and confirmation logs move to <code>console/trash</code> in the data dir. Nothing is unlinked: Undo, or
            Trash, puts them back.
          </>
        }
        onClose={() => setConfirm(false)}
        footer={
          <>
            <Button onClick={() => setConfirm(false)}>Cancel</Button>
            <Button variant="danger" icon="trash" loading={busy()} onClick={() => void remove()}>
              Move to the trash
            </Button>
          </>
        }
      />
    </div>
  );
}
