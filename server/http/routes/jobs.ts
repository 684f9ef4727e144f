// Jobs over HTTP (console-api.md §4.19): list (newest first, 64 KiB tails), one job (all its output), submit
// (202, after every check of the planner), cancel (404 unknown, 409 ended), and the files a job wrote. The
// guard has already refused writes in read-only mode (403), but not the preview, which writes nothing: it is
// planned by the planner that plans the job, and a job sent with the preview's id runs the argv shown.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import {
  ArtifactParamsSchema,
  JobParamsSchema,
  JobRequestIdSchema,
  JobRequestSchema,
  type Job,
  type JobList,
  type JobPreview,
  type JobRequest,
} from '../../../shared/jobs.ts';
import { planContext } from '../../data/job-context.ts';
import { resolveRequestPath } from '../../data/paths.ts';
import { debugString } from '../../engine/format.ts';
import { planJob, PlanError, type Plan } from '../../jobs/plan.ts';
import { shellJoin } from '../../engine/shell.ts';
import type { State } from '../../state.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { parseParams } from '../parse.ts';
import { errorText } from '../../../shared/error-text.ts';
import { issueText } from '../../../shared/issue-text.ts';

const noJob = (id: string) => notFound(`no job ${debugString(id)}`);

/** The body as a job request, and the id it carries (from its preview), if any. */
function requestOf(body: unknown): { request: JobRequest; id: string | null } {
  const parsed = v.safeParse(JobRequestSchema, body ?? {});
  if (!parsed.success) throw badRequest(issueText(parsed.issues, 'the job is not as expected', false));
  const id = v.safeParse(JobRequestIdSchema, body);
  if (!id.success) throw badRequest(issueText(id.issues, 'the job is not as expected', false));
  return { request: parsed.output, id: id.output.id ?? null };
}

async function planned(state: State, request: JobRequest, id: string, dryRun: boolean): Promise<Plan> {
  try {
    return await planJob(request, id, { ...(await planContext(state)), dryRun });
  } catch (err) {
    if (err instanceof PlanError) throw new ApiError(err.status, err.message);
    throw err;
  }
}

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

  // A refusal is the preview's answer, not its failure: the form shows why, as POST /api/jobs would say it.
  router.post('/api/jobs/preview', async (ctx) => {
    let answer: JobPreview;
    try {
      const { request } = requestOf((ctx.request as { body?: unknown }).body);
      const id = state.jobs.newId();
      const { title, params, defaults, argv } = await planned(state, request, id, true);
      answer = { ok: true, id, title, params, defaults, argv, command: `engine ${shellJoin(argv)}` };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answer = { ok: false, status: err.status, error: err.message };
    }
    sendJson(ctx, answer satisfies JobPreview);
  });

  router.post('/api/jobs', async (ctx) => {
    const { request, id: asked } = requestOf((ctx.request as { body?: unknown }).body);
    if (asked !== null && state.jobs.record(asked)) throw conflict(`job ${asked} exists: preview the job again for a new id`);
    const id = asked ?? state.jobs.newId();
    const plan = await planned(state, request, id, false);
    // Another request with the same id may have been planned meanwhile.
    if (state.jobs.record(id)) throw conflict(`job ${id} exists: preview the job again for a new id`);
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
