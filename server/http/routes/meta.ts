// GET /api/meta: what the UI needs to know about this console before anything else.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Meta } from '../../../shared/meta.ts';
import type { State } from '../../state.ts';

export function metaRoutes(state: State): Router {
  return new Router().get('/api/meta', (ctx) => {
    const c = state.config;
    sendJson(ctx, {
      version: c.version,
      data_dir: c.dataDir,
      read_only: c.readOnly,
      auth: c.token !== null,
      key_set: c.keySet || c.keyFileSet,
      salt_set: c.redactSaltSet,
      engine: c.engine,
      proxy: c.proxy,
    } satisfies Meta);
  });
}
