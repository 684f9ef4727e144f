// The Staged tab: the next version of this flow that `engine stage` learns beside it, how the two flows did
// on the sessions both were scored on, what committing would change, and every committed version, with
// commit and roll back behind confirm dialogs. The server's refusal reason disables Commit and says why.
import { A } from '@solidjs/router';
import { createSignal, For, Show } from 'solid-js';
import * as v from 'valibot';
import type { FlowSummary } from '../../../../shared/flows.ts';
import type { ComparisonView, Counts, StageView, VersionView } from '../../../../shared/stage.ts';
import { VersionViewSchema } from '../../../../shared/stage.ts';
import type { ApiError } from '../../api/client.ts';
import { commitFlow, getStage, rollbackFlow } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { formatDateTime } from '../../lib/format.ts';
import { counted, intervalBar, nextVersion, nothingToCommit, shareText, stageDelta, versionWhat } from '../../lib/flow-stage.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { toast } from '../../stores/toasts.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Term } from '../ui/Term.tsx';
import { Markdown } from '../ui/Markdown.tsx';
import { Button, Card, CodeBlock, Empty, ErrorState, Notice, RichText, Skeleton } from '../ui/ui.tsx';
import DiffLists from './DiffLists.tsx';

function CountsCell(props: { counts: Counts }) {
  const c = () => props.counts;
  const bar = () => (c().used_share ? intervalBar(c().used_share!, 140) : null);
  return (
    <div class="stage-cell">
      <div>
        <strong>{c().lookups}</strong> {c().lookups === 1 ? 'lookup' : 'lookups'} · <strong>{c().used}</strong> used
        <Show when={shareText(c().used_share)}>{(t) => <span class="muted"> ({t()})</span>}</Show> ·{' '}
        <strong>{c().detours}</strong> {c().detours === 1 ? 'detour' : 'detours'}
      </div>
      <Show when={bar()}>
        {(b) => (
          <span class="ibar" aria-hidden="true">
            <span class="ibar-band" style={{ left: `${b().left}px`, width: `${b().band}px` }} />
            <span class="ibar-point" style={{ left: `${b().point}px` }} />
          </span>
        )}
      </Show>
    </div>
  );
}

function Comparison(props: { last: ComparisonView }) {
  const l = () => props.last;
  return (
    <>
      <div class="table-wrap">
        <table class="table stacking" data-testid="stage-comparison">
          <thead>
            <tr>
              <th scope="col">After</th>
              <Show when={l().committed}>
                <th scope="col">Committed flow</th>
              </Show>
              <th scope="col">Staged flow</th>
            </tr>
          </thead>
          <tbody>
            <For each={l().sites}>
              {(s) => (
                <tr data-testid={`stage-site-${s.site}`}>
                  <td data-label="After" class="mono">{s.site}</td>
                  <Show when={l().committed}>
                    <td data-label="Committed flow"><CountsCell counts={s.committed} /></td>
                  </Show>
                  <td data-label="Staged flow"><CountsCell counts={s.staged} /></td>
                </tr>
              )}
            </For>
            <tr class="total-row" data-testid="stage-total">
              <th scope="row" data-label="After">Every site</th>
              <Show when={l().committed}>
                <td data-label="Committed flow"><CountsCell counts={l().total.committed} /></td>
              </Show>
              <td data-label="Staged flow">
                <CountsCell counts={l().total.staged} />
                <Show when={l().committed}>
                  <div class="stage-delta" data-testid="stage-delta">
                    {stageDelta(l().total.committed, l().total.staged)}
                  </div>
                </Show>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <Show when={l().total.committed.served > 0 || l().total.staged.served > 0}>
        <p class="caption">
          The proxy had already made {l().total.committed.served} of the committed flow’s lookups and {l().total.staged.served} of the
          staged flow’s, serving a flow: they count as neither used nor detours, since the agent had no reason to make them again.
        </p>
      </Show>
      <Show when={l().unanswered[0] > 0 || l().unanswered[1] > 0}>
        <p class="caption">
          Left out, as the System-One model gave no answer: {counted(l().unanswered[0], 'decision')} of the committed flow’s and{' '}
          {l().unanswered[1]} of the staged flow’s.
        </p>
      </Show>
      <p class="caption">
        A lookup counts once after each of the agent’s calls, as <code>engine promote</code> counts it: one the flow would make after
        several calls counts after each.
      </p>
    </>
  );
}

function Version(props: { version: VersionView; onRollback: (v: number) => void; fileKey?: string; explain?: boolean }) {
  const ver = () => props.version;
  const e = () => ver().evidence;
  return (
    <li class="version" data-testid={`version-${ver().version}`}>
      <div class="version-head">
        <strong class="mono">v{ver().version}</strong>
        <Show when={ver().current}>
          <span class="badge accent">committed now</span>
        </Show>
        <span>
          <Show when={ver().kind === 'found' && props.explain} fallback={versionWhat(ver().kind, ver().restored)}>
            <Term word="found in place" />
          </Show>
        </span>
        <span class="muted">{formatDateTime(ver().unix_ms)}</span>
        <Show when={props.fileKey}>
          {(k) => (
            <A href={`/flows/${encodeURIComponent(k())}`} class="mono" data-testid={`version-open-${ver().version}`}>
              open v{ver().version}
            </A>
          )}
        </Show>
        <Show when={!ver().current}>
          <Button
            size="sm"
            icon="retry"
            testid={`rollback-${ver().version}`}
            disabled={readOnly()}
            reason={READ_ONLY_REASON}
            onClick={() => props.onRollback(ver().version)}
            class="version-rollback"
          >
            Roll back to this
          </Button>
        </Show>
      </div>
      <Show when={ver().note}>
        <blockquote class="version-note">{ver().note}</blockquote>
      </Show>
      <Show when={e()}>
        {(ev) => (
          <p class="caption">
            On the last {counted(ev().compared, 'session')} before it, the staged flow’s lookups: {ev().total.staged.lookups},{' '}
            {ev().total.staged.used} used, {counted(ev().total.staged.detours, 'detour')}
            <Show when={ev().committed}>
              ; the committed flow’s: {ev().total.committed.lookups}, {ev().total.committed.used} used,{' '}
              {counted(ev().total.committed.detours, 'detour')}
            </Show>
            .
          </p>
        )}
      </Show>
      <Show when={ver().changes.length > 0}>
        <details class="version-changes">
          <summary>
            {counted(ver().changes.length, 'change')} from the version before
          </summary>
          <ul>
            <For each={ver().changes}>{(c) => <li><RichText text={c} /></li>}</For>
          </ul>
        </details>
      </Show>
    </li>
  );
}

export default function FlowStage(props: { flowKey: string; onChanged?: () => void; flows?: FlowSummary[] }) {
  const stage = createApiResource(() => props.flowKey, (key, signal) => getStage(key, { signal }), { topics: ['flows'] });
  const [committing, setCommitting] = createSignal(false);
  const [rollbackTo, setRollbackTo] = createSignal<number | null>(null);
  const [note, setNote] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);

  // Each committed version's own file (<name>.history/N.flow.json), to open it.
  const versionKeys = () => {
    const committed = stage.data()?.committed;
    const out = new Map<number, string>();
    for (const f of props.flows ?? []) if (f.version_of && committed && f.version_of.flow === committed) out.set(f.version_of.version, f.key);
    return out;
  };
  const stageJob = () => `/jobs/new?kind=stage&flow=${encodeURIComponent(stage.data()?.committed ?? props.flowKey)}`;
  const closeDialogs = () => {
    setCommitting(false);
    setRollbackTo(null);
    setProblem(null);
    setNote('');
  };
  const trimmedNote = () => (note().trim() === '' ? null : note().trim());

  // A commit and a rollback answer alike: the new version, then the dialog closes and the page reloads.
  const act = async (request: () => Promise<unknown>, done: (answer: VersionView) => { title: string; message: string }) => {
    setBusy(true);
    setProblem(null);
    try {
      const answer = v.parse(VersionViewSchema, await request());
      closeDialogs();
      toast({ kind: 'success', ...done(answer) });
      stage.refetch();
      props.onChanged?.();
    } catch (e) {
      setProblem((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const doCommit = () =>
    act(
      () => commitFlow(props.flowKey, trimmedNote()),
      (answer) => ({ title: `Committed as version ${answer.version}`, message: 'A proxy that starts now reads it: the next session is served the new flow.' }),
    );
  const doRollback = async () => {
    const to = rollbackTo();
    if (to === null) return;
    await act(
      () => rollbackFlow(props.flowKey, to, trimmedNote()),
      (answer) => ({ title: `Rolled back to version ${to}`, message: `As version ${answer.version}, which can be rolled back too.` }),
    );
  };

  return (
    <Show when={!stage.error()} fallback={<Card><ErrorState error={stage.error()!} retry={stage.refetch} /></Card>}>
      <Show when={!stage.loading() && stage.data()} fallback={<Card><Skeleton lines={5} /></Card>}>
        {(s) => <StageBody s={s()} stageJob={stageJob()} onCommit={() => setCommitting(true)} onRollback={(n) => setRollbackTo(n)} versionKeys={versionKeys()} />}
      </Show>
      <Dialog
        open={committing()}
        title="Commit the staged flow?"
        onClose={closeDialogs}
        testid="commit-dialog"
        footer={
          <>
            <Button onClick={closeDialogs}>Cancel</Button>
            <Button variant="primary" testid="stage-commit-confirm" loading={busy()} onClick={() => void doCommit()}>
              Commit
            </Button>
          </>
        }
      >
        <Show when={stage.data()}>
          {(s) => (
            <>
              <p>
                <code>{s().staged_path}</code> replaces <code>{s().committed_path}</code> whole, as version{' '}
                {nextVersion(s().versions, s().unrecorded)}. A proxy reads its flow when it starts, and an MCP host starts it for each
                session, so the next session is served the new flow.
                <Show when={s().unrecorded && s().committed !== null}> The committed flow as it is now is kept first, as a version of its own.</Show>
              </p>
              <NoteField id="stage-note" testid="stage-note" placeholder="reads the order after the account" value={note()} onInput={setNote} />
              <Show when={problem()}>
                <Notice tone="danger" role="alert">{problem()}</Notice>
              </Show>
            </>
          )}
        </Show>
      </Dialog>
      <Dialog
        open={rollbackTo() !== null}
        title={`Roll back to version ${rollbackTo() ?? ''}?`}
        onClose={closeDialogs}
        testid="rollback-dialog"
        footer={
          <>
            <Button onClick={closeDialogs}>Cancel</Button>
            <Button variant="primary" testid="rollback-confirm" loading={busy()} onClick={() => void doRollback()}>
              Roll back
            </Button>
          </>
        }
      >
        <p>
          Version {rollbackTo()} becomes <code>{stage.data()?.committed_path}</code> again, as a version of its own, so the rollback can be
          rolled back too. The staged flow stays as it is.
        </p>
        <NoteField id="rollback-note" testid="rollback-note" placeholder="detours after get_order_details" value={note()} onInput={setNote} />
        <Show when={problem()}>
          <Notice tone="danger" role="alert">{problem()}</Notice>
        </Show>
      </Dialog>
    </Show>
  );
}

function NoteField(props: { id: string; testid: string; placeholder: string; value: string; onInput: (v: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>
        Why <span class="optional">optional</span>
      </label>
      <textarea
        id={props.id}
        data-testid={props.testid}
        rows="3"
        placeholder={props.placeholder}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </div>
  );
}

function StageBody(props: { s: StageView; stageJob: string; onCommit: () => void; onRollback: (v: number) => void; versionKeys?: Map<number, string> }) {
  const s = () => props.s;
  const committedPath = () => s().committed_path;
  const canCommit = () => s().refused === null && !readOnly();
  const commitReason = () => (readOnly() ? READ_ONLY_REASON : (s().refused ?? undefined));
  return (
    <div class="stack">
      <Show
        when={s().staged}
        fallback={
          <Card testid="stage-empty">
            <Empty
              icon="branch"
              title="Nothing is staged"
              actions={
                <Button variant="primary" icon="branch" to={props.stageJob} disabled={readOnly()} reason={READ_ONLY_REASON}>
                  Stage this flow
                </Button>
              }
            >
              <code>engine stage</code> learns the next version of this flow from the sessions as they arrive, beside it as{' '}
              <code>{s().staged_path}</code>, and scores each new session with both flows before it learns from it. Nothing reaches the
              proxy until you commit.
            </Empty>
            <CodeBlock language="shell" wrap code={`engine stage --flow ${committedPath()} --sessions <dir>`} />
          </Card>
        }
      >
        {(staged) => (
          <Card
            title="The staged flow"
            testid="stage-status"
            actions={
              <>
                <Button icon="branch" to={props.stageJob} disabled={readOnly()} reason={READ_ONLY_REASON}>
                  Stage again
                </Button>
                <Button variant="primary" icon="check" testid="stage-commit" disabled={!canCommit()} reason={commitReason()} onClick={props.onCommit}>
                  Commit
                </Button>
              </>
            }
          >
            <p>
              <A href={`/flows/${encodeURIComponent(staged().key)}`} class="mono">
                {s().staged_path}
              </A>{' '}
              learned from {counted(staged().habit_episodes, 'session')} on {formatDateTime(staged().compiled_unix_ms)}
              <Show when={s().last}>{(l) => <>; its last run took in {l().new} new</>}</Show>.
            </p>
            <Show when={s().committed === null}>
              <p>
                There is no committed flow yet: the first commit makes <code>{committedPath()}</code>.
              </p>
            </Show>
            <Show when={(s().last?.carried.length ?? 0) > 0}>
              <p>It keeps what the committed flow has that it does not learn: {s().last!.carried.join(', ')}.</p>
            </Show>
            <Show when={s().refused}>
              {(r) => (
                <Show
                  when={nothingToCommit(r())}
                  fallback={
                    <Notice tone="danger" role="status" testid="stage-refused">
                      It cannot be committed: {r()}
                    </Notice>
                  }
                >
                  <Notice tone="accent" role="status" testid="stage-same">
                    The staged flow is the committed flow: nothing to commit. Stage again as sessions arrive.
                  </Notice>
                </Show>
              )}
            </Show>
            <Show when={s().refused === null && s().last !== null && !s().evidence}>
              <Notice tone="warn" role="status">
                The last comparison is of an earlier staged flow, so a commit would record no evidence. Stage again to compare this one.
              </Notice>
            </Show>
          </Card>
        )}
      </Show>
      <Show when={s().last}>
        {(l) => (
          <Card
            title="How the two flows did"
            caption={
              l().compared > 0
                ? `On the last ${counted(l().compared, 'session')} both were scored on, each as it arrived, before either flow learned from it.`
                : 'No session has been scored by both flows yet: the staged flow is scored on the sessions that arrive after it.'
            }
          >
            <Show when={l().compared > 0}>
              <Comparison last={l()} />
            </Show>
            <Show when={s().report_markdown}>
              {(md) => (
                <details class="report">
                  <summary>The report, as engine stage writes it</summary>
                  <Markdown text={md()} shift={2} />
                </details>
              )}
            </Show>
          </Card>
        )}
      </Show>
      <Show when={s().diff !== null && s().refused === null}>
        <Card title="What committing it would change" caption="As engine flow-diff lists it, and as the commit records it">
          <DiffLists diff={s().diff!} />
        </Card>
      </Show>
      <Card title="Versions" caption={`Every committed version of ${committedPath()}, the latest first: engine flow-log`}>
        <Show when={s().unrecorded && s().committed !== null && s().versions.length > 0}>
          <Notice tone="warn" role="status">
            The committed flow is not the latest version: it changed since, by other means than a commit. A commit or a rollback keeps it as
            a version first.
          </Notice>
        </Show>
        <Show
          when={s().versions.length > 0}
          fallback={
            <p class="muted" data-testid="versions-empty">
              No version has been committed. The first commit keeps the flow as it is now as a version of its own, so it can be rolled back
              to.
            </p>
          }
        >
          <ol class="versions" data-testid="versions">
            <For each={s().versions}>{(ver) => <Version
                  version={ver}
                  onRollback={props.onRollback}
                  fileKey={props.versionKeys?.get(ver.version)}
                  explain={s().versions.find((x) => x.kind === 'found') === ver}
                />}</For>
          </ol>
        </Show>
      </Card>
    </div>
  );
}
