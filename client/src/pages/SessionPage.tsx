// One session: its header and numbers, then tabs for the timeline (turns, calls, the flow's lookups and
// decisions, the conversation), the decisions table, the raw log and the tools. Download, and delete to the
// trash with a confirmation. It loads the outline, not the whole session: a big log's payloads come only
// when a call is opened. The parts are in pages/session/.
import { useParams, useSearchParams } from '@solidjs/router';
import { createSignal, Show } from 'solid-js';
import { getServers, getSessionOutline, sessionRawUrl, sessionOtlpUrl } from '../api/endpoints.ts';
import { CompareWithRecorded } from '../components/session/CompareButton.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, PageHeader } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { takeEarlyOutline } from '../data/early-loads.ts';
import { READ_ONLY_REASON, readOnly } from '../stores/auth.ts';
import { DeleteSessionDialog } from './session/DeleteSessionDialog.tsx';
import { SessionGone } from './session/SessionGone.tsx';
import { SessionMeta, SessionUpstream } from './session/SessionHeader.tsx';
import { SessionStats, SurprisedNotice } from './session/SessionNumbers.tsx';
import { hasConfirmations, SESSION_TABS, SessionTabs, type SessionTab } from './session/SessionTabs.tsx';

export default function SessionPage() {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const key = () => params.key ?? '';
  const res = createApiResource(key, (k, signal) => getSessionOutline(k, { signal }), { topics: ['sessions'], key: (k) => k, early: takeEarlyOutline });
  const servers = createApiResource(
    () => true,
    (_s, signal) => getServers({ signal }),
    { topics: ['servers'] },
  );
  const s = () => res.data()?.summary;
  useTitle(() => s()?.session_id ?? 'Session');

  const tabParam = () => (Array.isArray(search.tab) ? search.tab[0] : search.tab) ?? '';
  const tab = (): SessionTab => {
    const t = SESSION_TABS.includes(tabParam() as SessionTab) ? (tabParam() as SessionTab) : 'timeline';
    return t === 'confirmations' && !hasConfirmations(res.data()) ? 'timeline' : t;
  };
  const setTab = (t: SessionTab) => setSearch({ tab: t === 'timeline' ? undefined : t }, { replace: true, scroll: false });
  const server = () => servers.data()?.items.find((x) => x.name === s()?.domain);
  const [confirm, setConfirm] = createSignal(false);

  return (
    <div class="page">
      <PageHeader
        back={{ to: '/sessions', label: 'Sessions' }}
        title={s()?.session_id ?? key()}
        mono
        meta={<Show when={s()}>{(summary) => <SessionMeta summary={summary()} />}</Show>}
        sub={<Show when={s()}>{(summary) => <SessionUpstream summary={summary()} />}</Show>}
        actions={
          <>
            <Show when={s()?.mode === 'served'}>
              <CompareWithRecorded summary={s()!} />
            </Show>
            <Button icon="download" href={sessionRawUrl(key())} download={`${s()?.session_id ?? key()}.jsonl`} disabled={!s()}>
              Download
            </Button>
            <Button icon="download" testid="session-otlp" href={sessionOtlpUrl(key())} download={`${s()?.session_id ?? key()}.otlp.json`} disabled={!s()} title="The session as an OpenTelemetry trace (OTLP/JSON), for Jaeger, Tempo or a Collector">
              OTLP
            </Button>
            <Button icon="trash" variant="danger" disabled={readOnly() || !s()} reason={readOnly() ? READ_ONLY_REASON : 'Loading'} onClick={() => setConfirm(true)}>
              Delete
            </Button>
          </>
        }
      />
      <Loaded resource={res} skeleton={8} skeletonHeight={20} notFoundTitle="No such session"
        notFound={() => <SessionGone sessionKey={key()} error={res.error()!} onRestored={res.refetch} />}
        errorFrame={(e) => <Card label="Session">{e}</Card>}>
        {(d) => (
          <>
            <SurprisedNotice outline={d()} />
            <SessionStats outline={d()} refreshing={res.refreshing()} />
            <SessionTabs outline={d()} sessionKey={key()} server={server()} tab={tab()} onTab={setTab} />
          </>
        )}
      </Loaded>
      <DeleteSessionDialog open={confirm()} sessionKey={key()} path={s()?.path} onClose={() => setConfirm(false)} />
    </div>
  );
}
