// GET /api/overview (console-api.md §4.3); the figures come from data/overview.ts.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { OverviewQuerySchema, type Overview } from '../../../shared/overview.ts';
import { overview } from '../../data/overview.ts';
import type { State } from '../../state.ts';
import { parseQuery } from '../parse.ts';

export function overviewRoutes(state: State): Router {
  return new Router().get('/api/overview', async (ctx) => {
    sendJson(ctx, (await overview(state, parseQuery(ctx, OverviewQuerySchema))) satisfies Overview);
  });
}
