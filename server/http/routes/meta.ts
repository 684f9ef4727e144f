// GET /api/meta: what the UI needs to know about this console before anything else.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Meta } from '../../../shared/meta.ts';
import { JOB_KINDS, type OptionalJobKind } from '../../../shared/jobs.ts';
import type { State } from '../../state.ts';

export function metaRoutes(state: State): Router {
  return new Router().get('/api/meta', async (ctx) => {
    const c = state.config;
    const offers = await state.commands.offers();
    const jobKinds = JOB_KINDS.filter((k) => offers.get(k as OptionalJobKind)?.offered ?? true);
    sendJson(ctx, {
      version: c.version,
      data_dir: c.dataDir,
      read_only: c.readOnly,
      auth: c.token !== null,
      key_set: c.keySet || c.keyFileSet,
      salt_set: c.redactSaltSet,
      engine: c.engine,
      proxy: c.proxy,
      job_kinds: jobKinds,
    } satisfies Meta);
  });
}
