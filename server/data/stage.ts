// Staged learning as the console serves it (console-api.md §4.13–4.14): a deployment found by the key of
// its committed or staged flow, its stage view, and commit and rollback as the CLI's flow-commit and
// flow-rollback make them. The file work (loading, diffing, writing) runs in the worker pool; commits and
// rollbacks of one deployment run one at a time (`caches.stageQueue`, data-caches.ts).
import { DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT } from '../../shared/limits.ts';
import type { FlowDiffView } from '../../shared/flows.ts';
import type { StageView, VersionView } from '../../shared/stage.ts';
import { stagePathsOf, type StagePaths } from '../engine/stage.ts';
import type { DataContext } from './data-context.ts';
import type { StageTaskResult } from '../workers/tasks/stage.ts';
import type { Catalog, FlowFile } from './catalog.ts';
import { FlowUnreadable, flowDiffView, flowSummary } from './flows.ts';
import { shown } from './paths.ts';
import { checkContained, LeadsOut } from './stage-containment.ts';
import { errorText } from '../../shared/error-text.ts';

/** No flow has this key (404). */
export class NoSuchFlow extends Error {}
/** The flow's name does not fit a deployment (400). */
export class NotADeployment extends Error {}
/** A commit or rollback that the files refuse (409), or files that cannot be read or written (422). */
export class StageRefused extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/** The flow `key` and its deployment's files. */
export async function deployment(state: DataContext, key: string): Promise<{ catalog: Catalog; file: FlowFile; paths: StagePaths }> {
  const catalog = await state.catalog();
  const file = catalog.flow(key);
  if (!file) throw new NoSuchFlow(`no flow ${JSON.stringify(key)}`);
  let paths: StagePaths;
  try {
    paths = stagePathsOf(file.path);
  } catch (e) {
    throw new NotADeployment(errorText(e));
  }
  await contained(state, paths);
  return { catalog, file, paths };
}

/** Every file of the deployment inside the data directory, else a 422 that names the one that leads out. */
async function contained(state: DataContext, paths: StagePaths): Promise<void> {
  try {
    await checkContained(state.config.dataDir, paths);
  } catch (e) {
    if (e instanceof LeadsOut) throw new StageRefused(e.message, false);
    throw e;
  }
}

function answer<T>(result: StageTaskResult<T>): T {
  if (result.ok) return result.value;
  throw new StageRefused(result.message, result.refused);
}

/** What committing would change: flow-diff(committed → staged) at its defaults; null unless both load. */
async function stagedDiff(state: DataContext, committed: FlowFile, staged: FlowFile): Promise<FlowDiffView | null> {
  try {
    return await flowDiffView(
      state,
      { key: committed.key, file: committed },
      { key: staged.key, file: staged },
      FLOW_THRESHOLD_DEFAULT,
      DIFF_TOLERANCE_DEFAULT,
    );
  } catch (e) {
    if (e instanceof FlowUnreadable) return null;
    throw e;
  }
}

export async function stageView(state: DataContext, key: string): Promise<StageView> {
  const where = { dataDir: state.config.dataDir, home: state.config.home };
  const { catalog, paths } = await deployment(state, key);
  const committed = catalog.flowAt(paths.committed);
  const staged = catalog.flowAt(paths.staged);
  const [files, summary, diff] = await Promise.all([
    state.pool.run('stageView', { committed: paths.committed }).then(answer),
    staged ? flowSummary(state, staged, catalog).then((s) => s.summary) : null,
    committed && staged ? stagedDiff(state, committed, staged) : null,
  ]);
  return {
    committed: committed?.key ?? null,
    committed_path: shown(paths.committed, where),
    staged: summary,
    staged_path: shown(paths.staged, where),
    last: files.last,
    report_markdown: files.report_markdown,
    evidence: files.evidence,
    refused: files.refused,
    diff,
    versions: files.versions,
    unrecorded: files.unrecorded,
  };
}

export async function commitStaged(state: DataContext, key: string, note: string | null): Promise<VersionView> {
  const { paths } = await deployment(state, key);
  // Checked again in the queue, right before the writes: a link may have appeared while it waited.
  return state.caches.stageQueue.run(paths.committed, async () => {
    await contained(state, paths);
    return answer(await state.pool.run('stageCommit', { committed: paths.committed, note, nowMs: state.config.now() }));
  });
}

export async function rollBack(state: DataContext, key: string, to: number | null, note: string | null): Promise<VersionView> {
  const { paths } = await deployment(state, key);
  return state.caches.stageQueue.run(paths.committed, async () => {
    await contained(state, paths);
    return answer(await state.pool.run('stageRollback', { committed: paths.committed, to, note, nowMs: state.config.now() }));
  });
}
