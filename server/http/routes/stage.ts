// Staged learning over HTTP (console-api.md §4.13–4.14): the stage view of a deployment, and commit and
// rollback as the CLI's flow-commit and flow-rollback make them. `:key` names the committed flow or the
// staged one; both answer for the pair. The file work (loading, diffing, writing) runs in the worker pool;
// commits and rollbacks of one deployment run one at a time, so two requests never pick the same version.
import Router from '@koa/router';
import type { Context } from 'koa';
import { FlowKeyParamsSchema, type FlowDiffView } from '../../../shared/flows.ts';
import { DIFF_TOLERANCE_DEFAULT, FLOW_THRESHOLD_DEFAULT } from '../../../shared/limits.ts';
import { CommitRequestSchema, RollbackRequestSchema, type StageView, type VersionView } from '../../../shared/stage.ts';
import type { Catalog, FlowFile } from '../../data/catalog.ts';
import { FlowUnreadable, flowDiffView, flowSummary } from '../../data/flows.ts';
import { shown } from '../../data/paths.ts';
import { stagePathsOf, type StagePaths } from '../../engine/stage.ts';
import type { State } from '../../state.ts';
import type { StageTaskResult } from '../../workers/tasks/stage.ts';
import { badRequest, conflict, notFound, unprocessable } from '../errors.ts';
import { parseBody, parseParams } from '../parse.ts';

/** The flow `key` and its deployment's files: 404 for an unknown key, 400 when the name does not fit. */
async function deployment(state: State, key: string): Promise<{ catalog: Catalog; file: FlowFile; paths: StagePaths }> {
  const catalog = await state.catalog();
  const file = catalog.flow(key);
  if (!file) throw notFound(`no flow ${JSON.stringify(key)}`);
  try {
    return { catalog, file, paths: stagePathsOf(file.path) };
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}

/** A task's answer, or its failure: 409 for a refusal, 422 for files that cannot be read or written. */
function answer<T>(result: StageTaskResult<T>): T {
  if (result.ok) return result.value;
  throw result.refused ? conflict(result.message) : unprocessable(result.message);
}

/** What committing would change: flow-diff(committed → staged) at its defaults; null unless both load. */
async function stagedDiff(state: State, committed: FlowFile, staged: FlowFile): Promise<FlowDiffView | null> {
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

/** Runs work one at a time per key (a deployment's committed path), in the order it arrives. */
function queuePerKey() {
  const running = new Map<string, Promise<unknown>>();
  return async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = running.get(key) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(work);
    running.set(key, next);
    try {
      return await next;
    } finally {
      if (running.get(key) === next) running.delete(key);
    }
  };
}

/**
 * An empty body means the defaults (§4.14). koa-body hands a non-strict empty JSON body over as "", which
 * parseBody does not count as absent, so it is made `{}` here first.
 */
function defaultsWhenEmpty(ctx: Context): void {
  const request = ctx.request as { body?: unknown };
  if (typeof request.body === 'string' && request.body.trim() === '') request.body = {};
}

export function stageRoutes(state: State): Router {
  const router = new Router();
  const where = { dataDir: state.config.dataDir, home: state.config.home };
  const oneAtATime = queuePerKey();

  router.get('/api/flows/:key/stage', async (ctx) => {
    const { key } = parseParams(ctx, FlowKeyParamsSchema);
    const { catalog, paths } = await deployment(state, key);
    const committed = catalog.flowAt(paths.committed);
    const staged = catalog.flowAt(paths.staged);
    const [files, summary, diff] = await Promise.all([
      state.pool.run('stageView', { committed: paths.committed }).then(answer),
      staged ? flowSummary(state, staged, catalog).then((s) => s.summary) : null,
      committed && staged ? stagedDiff(state, committed, staged) : null,
    ]);
    const view: StageView = {
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
    ctx.body = view;
  });

  router.post('/api/flows/:key/commit', async (ctx) => {
    defaultsWhenEmpty(ctx);
    const request = parseBody(ctx, CommitRequestSchema);
    const { key } = parseParams(ctx, FlowKeyParamsSchema);
    const { paths } = await deployment(state, key);
    const version = await oneAtATime(paths.committed, async () =>
      answer(await state.pool.run('stageCommit', { committed: paths.committed, note: request.note, nowMs: state.config.now() })),
    );
    ctx.body = version satisfies VersionView;
  });

  router.post('/api/flows/:key/rollback', async (ctx) => {
    defaultsWhenEmpty(ctx);
    const request = parseBody(ctx, RollbackRequestSchema);
    const { key } = parseParams(ctx, FlowKeyParamsSchema);
    const { paths } = await deployment(state, key);
    const version = await oneAtATime(paths.committed, async () =>
      answer(
        await state.pool.run('stageRollback', {
          committed: paths.committed,
          to: request.to,
          note: request.note,
          nowMs: state.config.now(),
        }),
      ),
    );
    ctx.body = version satisfies VersionView;
  });

  return router;
}
