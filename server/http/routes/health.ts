// GET /api/health: the one path that needs no token (the container healthcheck reads it).
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Health } from '../../../shared/meta.ts';
import type { State } from '../../state.ts';

export function healthRoutes(state: State): Router {
  return new Router().get('/api/health', (ctx) => {
    sendJson(ctx, { ok: true, version: state.config.version } satisfies Health);
  });
}
