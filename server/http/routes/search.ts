// GET /api/search: a phrase found inside every session's logs (search/run.ts), page by page. A search whose
// asker went away (a newer search from the same page aborts the older) stops between batches.
import Router from '@koa/router';
import { SearchQuerySchema, type SearchAnswer } from '../../../shared/search.ts';
import { searchSessions } from '../../search/run.ts';
import type { State } from '../../state.ts';
import { WorkerDied } from '../../workers/pool.ts';
import { unprocessable } from '../errors.ts';
import { sendJson } from '../json.ts';
import { parseQuery } from '../parse.ts';

export function searchRoutes(state: State): Router {
  return new Router().get('/api/search', async (ctx) => {
    const query = parseQuery(ctx, SearchQuerySchema);
    let gone = false;
    ctx.res.once('close', () => {
      gone = !ctx.res.writableFinished;
    });
    try {
      sendJson(ctx, (await searchSessions(state, query, () => gone)) satisfies SearchAnswer);
    } catch (err) {
      if (err instanceof WorkerDied) throw unprocessable(`a log in scope cannot be searched: ${err.message}; narrow the search by domain or dates`);
      throw err;
    }
  });
}
