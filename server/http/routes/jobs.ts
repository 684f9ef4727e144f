// Jobs over HTTP (console-api.md §4.19): list (newest first, 64 KiB tails), one job (all its output), submit
// (202, after every check of the planner), cancel (404 unknown, 409 ended), and the files a job wrote. The
// guard has already refused writes in read-only mode (403).
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { ArtifactParamsSchema, JobParamsSchema, JobRequestSchema, type Job, type JobList } from '../../../shared/jobs.ts';
import { planContext } from '../../data/job-context.ts';
import { resolveRequestPath } from '../../data/paths.ts';
import { debugString } from '../../engine/format.ts';
import { planJob, PlanError } from '../../jobs/plan.ts';
import type { State } from '../../state.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { parseParams } from '../parse.ts';
import { errorText } from '../../../shared/error-text.ts';
import { issueText } from '../../../shared/issue-text.ts';

const noJob = (id: string) => notFound(`no job ${debugString(id)}`);

function contentType(path: string): string {
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.md')) return 'text/markdown; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

export function jobsRoutes(state: State): Router {
  const router = new Router();

  router.get('/api/jobs', async (ctx) => {
    sendJson(ctx, { items: await state.jobs.list() } satisfies JobList);
  });

  router.post('/api/jobs', async (ctx) => {
    const parsed = v.safeParse(JobRequestSchema, (ctx.request as { body?: unknown }).body ?? {});
    if (!parsed.success) throw badRequest(issueText(parsed.issues, 'the job is not as expected', false));
    const id = state.jobs.newId();
    let plan;
    try {
      plan = await planJob(parsed.output, id, await planContext(state));
    } catch (err) {
      if (err instanceof PlanError) throw new ApiError(err.status, err.message);
      throw err;
    }
    ctx.status = 202;
    sendJson(ctx, state.jobs.submit(id, plan) satisfies Job);
  });

  router.get('/api/jobs/:id', async (ctx) => {
    const { id } = parseParams(ctx, JobParamsSchema);
    const job = await state.jobs.get(id);
    if (!job) throw noJob(id);
    sendJson(ctx, job satisfies Job);
  });

  router.post('/api/jobs/:id/cancel', async (ctx) => {
    const { id } = parseParams(ctx, JobParamsSchema);
    const result = await state.jobs.cancel(id);
    if (result.ok) {
      sendJson(ctx, result.job satisfies Job);
      return;
    }
    if (result.reason === 'unknown') throw noJob(id);
    throw conflict(`job ${id} has ended (${result.job.status}): there is nothing to cancel`);
  });

  router.get('/api/jobs/:id/artifacts/:index', async (ctx) => {
    const { id, index } = parseParams(ctx, ArtifactParamsSchema);
    const job = state.jobs.record(id);
    if (!job) throw noJob(id);
    const artifact = job.artifacts[index];
    if (!artifact) throw notFound(`job ${id} has no artifact ${index}`);
    if (artifact.kind === 'dir') throw badRequest(`${artifact.path} is a directory`);
    let path: string;
    try {
      path = resolveRequestPath(artifact.path, { dataDir: state.config.dataDir, home: state.config.home });
    } catch (err) {
      throw forbidden(errorText(err));
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (err) {
      throw notFound(`${artifact.path}: ${errorText(err)}`);
    }
    ctx.set('Content-Type', contentType(artifact.path));
    ctx.body = bytes;
  });

  return router;
}
