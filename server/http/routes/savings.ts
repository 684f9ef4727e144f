// GET /api/savings (shared/savings.ts): what serving a flow changed, per UTC day and domain, from the index.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { SavingsQuerySchema, type Savings } from '../../../shared/savings.ts';
import { sessionSummaries } from '../../data/sessions.ts';
import { savings } from '../../engine/savings.ts';
import type { State } from '../../state.ts';
import { parseQuery } from '../parse.ts';

export function savingsRoutes(state: State): Router {
  return new Router().get('/api/savings', async (ctx) => {
    const query = parseQuery(ctx, SavingsQuerySchema);
    sendJson(ctx, savings((await sessionSummaries(state)).counts.tallies, { ...query, now: state.config.now() }) satisfies Savings);
  });
}
