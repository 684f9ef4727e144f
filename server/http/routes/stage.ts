// Staged learning over HTTP (console-api.md §4.13–4.14): the stage view of a deployment, and commit and
// rollback. `:key` names the committed flow or the staged one; both answer for the pair. The work is in
// data/stage.ts.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { FlowKeyParamsSchema } from '../../../shared/flows.ts';
import { CommitRequestSchema, RollbackRequestSchema, type StageView, type VersionView } from '../../../shared/stage.ts';
import { commitStaged, NoSuchFlow, NotADeployment, rollBack, StageRefused, stageView } from '../../data/stage.ts';
import type { State } from '../../state.ts';
import { badRequest, conflict, notFound, unprocessable } from '../errors.ts';
import { parseBody, parseParams } from '../parse.ts';

/** 404 unknown key, 400 not a deployment, 409 refused by the files, 422 files that cannot be read. */
async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof NoSuchFlow) throw notFound(e.message);
    if (e instanceof NotADeployment) throw badRequest(e.message);
    if (e instanceof StageRefused) throw e.refused ? conflict(e.message) : unprocessable(e.message);
    throw e;
  }
}

export function stageRoutes(state: State): Router {
  return new Router()
    .get('/api/flows/:key/stage', async (ctx) => {
      const { key } = parseParams(ctx, FlowKeyParamsSchema);
      sendJson(ctx, (await mapped(() => stageView(state, key))) satisfies StageView);
    })
    .post('/api/flows/:key/commit', async (ctx) => {
      const request = parseBody(ctx, CommitRequestSchema);
      const { key } = parseParams(ctx, FlowKeyParamsSchema);
      sendJson(ctx, (await mapped(() => commitStaged(state, key, request.note))) satisfies VersionView);
    })
    .post('/api/flows/:key/rollback', async (ctx) => {
      const request = parseBody(ctx, RollbackRequestSchema);
      const { key } = parseParams(ctx, FlowKeyParamsSchema);
      sendJson(ctx, (await mapped(() => rollBack(state, key, request.to, request.note))) satisfies VersionView);
    });
}
