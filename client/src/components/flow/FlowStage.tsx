// The Staged tab: the next version of this flow that `engine stage` learns beside it, how the two flows did
// on the sessions both were scored on, what committing would change, and every committed version, with
// commit and roll back behind confirm dialogs. The server's refusal reason disables Commit and says why.
// The page loads the stage view and does the commit and the rollback; this shows them.
import { A } from '@solidjs/router';
import { createSignal, Show } from 'solid-js';
import type { FlowSummary } from '../../../../shared/flows.ts';
import type { StageView, VersionView } from '../../../../shared/stage.ts';
import type { ApiResource } from '../../data/createApiResource.ts';
import { createAction } from '../../data/createAction.ts';
import { flowHref } from '../../lib/flow-address.ts';
import { formatDateTime } from '../../lib/format.ts';
import { counted, nothingToCommit } from '../../lib/flow-stage.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';
import { Loaded } from '../ui/Loaded.tsx';
import { Markdown } from '../ui/Markdown.tsx';
import { Button, Card, CodeBlock, Empty, Notice, Skeleton } from '../ui/ui.tsx';
import DiffLists from './DiffLists.tsx';
import { StageComparison } from './StageComparison.tsx';
import { CommitDialog, RollbackDialog } from './StageDialogs.tsx';
import { VersionsCard } from './StageVersions.tsx';

interface FlowStageProps {
  flowKey: string;
  stage: ApiResource<StageView>;
  flows?: FlowSummary[];
  commit: (note: string | null) => Promise<VersionView>;
  rollback: (to: number, note: string | null) => Promise<VersionView>;
  /** After a commit or a rollback: the page reloads what it shows. */
  onChanged: () => void;
}

export default function FlowStage(props: FlowStageProps) {
  const [committing, setCommitting] = createSignal(false);
  const [rollbackTo, setRollbackTo] = createSignal<number | null>(null);
  const [note, setNote] = createSignal('');
  const data = () => props.stage.data();

  // Each committed version whose own file (<name>.history/N.flow.json) is there, at its address under the flow.
  const versionHrefs = () => {
    const committed = data()?.committed;
    const out = new Map<number, string>();
    for (const f of props.flows ?? []) if (f.version_of && committed && f.version_of.flow === committed) out.set(f.version_of.version, flowHref(f));
    return out;
  };
  const stageJob = () => `/jobs/new?kind=stage&flow=${encodeURIComponent(data()?.committed ?? props.flowKey)}`;
  const trimmedNote = () => (note().trim() === '' ? null : note().trim());

  // A commit and a rollback answer alike: the new version, then the dialog closes and the page reloads.
  const closeDialogs = () => {
    setCommitting(false);
    setRollbackTo(null);
    commit.clearError();
    rollback.clearError();
    setNote('');
  };
  const done = () => {
    closeDialogs();
    props.onChanged();
  };
  const commit = createAction(() => props.commit(trimmedNote()), {
    success: (answer) => ({ title: `Committed as version ${answer.version}`, message: 'A proxy that starts now reads it: the next session is served the new flow.' }),
    after: done,
  });
  const rollback = createAction((to: number) => props.rollback(to, trimmedNote()), {
    success: (answer, to) => ({ title: `Rolled back to version ${to}`, message: `As version ${answer.version}, which can be rolled back too.` }),
    after: done,
  });
  const confirmRollback = () => {
    const to = rollbackTo();
    if (to !== null) void rollback.run(to);
  };

  return (
    <>
      <Loaded resource={props.stage} skeleton={<Card><Skeleton lines={5} /></Card>} errorFrame={(e) => <Card>{e}</Card>}>
        {(s) => <StageBody s={s()} stageJob={stageJob()} onCommit={() => setCommitting(true)} onRollback={setRollbackTo} versionHrefs={versionHrefs()} />}
      </Loaded>
      <CommitDialog
        open={committing()}
        stage={data()}
        note={note()}
        onNote={setNote}
        busy={commit.busy()}
        problem={commit.error()}
        onClose={closeDialogs}
        onConfirm={() => void commit.run()}
      />
      <RollbackDialog
        to={rollbackTo()}
        committedPath={data()?.committed_path}
        note={note()}
        onNote={setNote}
        busy={rollback.busy()}
        problem={rollback.error()}
        onClose={closeDialogs}
        onConfirm={confirmRollback}
      />
    </>
  );
}

type StageCardProps = { s: StageView; stageJob: string };

/** Nothing staged: how to stage this flow. */
function NothingStaged(props: StageCardProps) {
  const s = () => props.s;
  const committedPath = () => s().committed_path;
  return (
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
  );
}

/** The staged flow: where it came from, and whether it can be committed (Commit, or why not). */
function StagedStatus(props: StageCardProps & { staged: NonNullable<StageView['staged']>; onCommit: () => void }) {
  const s = () => props.s;
  const staged = () => props.staged;
  const committedPath = () => s().committed_path;
  const canCommit = () => s().refused === null && !readOnly();
  const commitReason = () => (readOnly() ? READ_ONLY_REASON : (s().refused ?? undefined));
  return (
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
  );
}

/** How the two flows did on their last comparison, with the stage report. */
function LastComparison(props: { s: StageView; last: NonNullable<StageView['last']> }) {
  const s = () => props.s;
  const l = () => props.last;
  return (
    <Card
      title="How the two flows did"
      caption={
        l().compared > 0
          ? `On the last ${counted(l().compared, 'session')} both were scored on, each as it arrived, before either flow learned from it.`
          : 'No session has been scored by both flows yet: the staged flow is scored on the sessions that arrive after it.'
      }
    >
      <Show when={l().compared > 0}>
        <StageComparison last={l()} />
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
  );
}

function StageBody(props: StageCardProps & { onCommit: () => void; onRollback: (v: number) => void; versionHrefs?: Map<number, string> }) {
  const s = () => props.s;
  return (
    <div class="stack">
      <Show when={s().staged} fallback={<NothingStaged s={s()} stageJob={props.stageJob} />}>
        {(staged) => <StagedStatus s={s()} stageJob={props.stageJob} staged={staged()} onCommit={props.onCommit} />}
      </Show>
      <Show when={s().last}>{(l) => <LastComparison s={s()} last={l()} />}</Show>
      <Show when={s().diff !== null && s().refused === null}>
        <Card title="What committing it would change" caption="As engine flow-diff lists it, and as the commit records it">
          <DiffLists diff={s().diff!} />
        </Card>
      </Show>
      <VersionsCard s={s()} onRollback={props.onRollback} versionHrefs={props.versionHrefs} />
    </div>
  );
}
