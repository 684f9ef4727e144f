// The session page's light views (issue 10), under /api/sessions/:key/…: the outline, one call's payload and
// its raw download, find inside the session, and the raw log's events and lines a page at a time. GET
// /api/sessions/:key itself stays as the spec defines it (routes/sessions.ts).
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { setContentType } from '../content-type.ts';
import type { Context } from 'koa';
import {
  type CallLines,
  CallParamsSchema,
  CallQuerySchema,
  EventParamsSchema,
  type LogLine,
  SessionEventsQuerySchema,
  SessionFindQuerySchema,
  SessionLinesQuerySchema,
  type SessionLines,
  type SessionEvents,
  type SessionFind,
  type SessionOutline,
} from '../../../shared/session-views.ts';
import type { SessionFile } from '../../data/catalog.ts';
import { callPayloadJson, callResultTextOf, eventLine, sessionCallLines, findInSession, NoSuchCall, NoSuchEvent, PayloadMoved, sessionEventsPage, sessionIndex, sessionLinesPage } from '../../data/session-views.ts';
import { UnreadableSession } from '../../data/sessions.ts';
import type { State } from '../../state.ts';
import { internal, notFound, unprocessable } from '../errors.ts';
import { parseParams, parseQuery } from '../parse.ts';
import { downloadName } from './sessions.ts';

export function sessionViewsRoutes(state: State): Router {
  async function find(ctx: Context): Promise<SessionFile> {
    const key = String((ctx as Context & { params: Record<string, string> }).params.key);
    const file = await state.session(key);
    if (!file) throw notFound(`no session ${JSON.stringify(key)}`);
    return file;
  }

  /** The data layer's failures as the spec's statuses. */
  async function answer<T>(file: SessionFile, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof UnreadableSession) throw unprocessable(`${file.rel} is not a session log engine can read: ${err.message}`);
      if (err instanceof NoSuchCall || err instanceof NoSuchEvent) throw notFound(err.message);
      if (err instanceof PayloadMoved) throw internal(`reading ${file.rel}: ${err.message}`);
      throw err;
    }
  }

  return new Router()
    .get('/api/sessions/:key/outline', async (ctx) => {
      const file = await find(ctx);
      sendJson(ctx, (await answer(file, async () => (await sessionIndex(state, file)).outline)) satisfies SessionOutline);
    })
    .get('/api/sessions/:key/call-lines', async (ctx) => {
      const file = await find(ctx);
      sendJson(ctx, { lines: await answer(file, () => sessionCallLines(state, file)) } satisfies CallLines);
    })
    .get('/api/sessions/:key/calls/:n', async (ctx) => {
      const { n } = parseParams(ctx, CallParamsSchema);
      const { all } = parseQuery(ctx, CallQuerySchema);
      const file = await find(ctx);
      // Already JSON (a CallPayload), serialized in the worker.
      setContentType(ctx, 'json');
      ctx.body = await answer(file, () => callPayloadJson(state, file, n, all));
    })
    .get('/api/sessions/:key/calls/:n/result', async (ctx) => {
      const { n } = parseParams(ctx, CallParamsSchema);
      const file = await find(ctx);
      const { id, text } = await answer(file, () => callResultTextOf(state, file, n));
      if (text === null) throw notFound(`call ${n} got no answer`);
      setContentType(ctx, 'text');
      ctx.set('Content-Disposition', `attachment; filename="${downloadName(`${file.key}-call-${id}.txt`)}"`);
      ctx.body = text;
    })
    .get('/api/sessions/:key/find', async (ctx) => {
      const { q } = parseQuery(ctx, SessionFindQuerySchema);
      const file = await find(ctx);
      sendJson(ctx, { q, matches: await answer(file, () => findInSession(state, file, q)) } satisfies SessionFind);
    })
    .get('/api/sessions/:key/lines', async (ctx) => {
      const { offset, limit } = parseQuery(ctx, SessionLinesQuerySchema);
      const file = await find(ctx);
      sendJson(ctx, (await answer(file, () => sessionLinesPage(state, file, offset, limit))) satisfies SessionLines);
    })
    .get('/api/sessions/:key/events', async (ctx) => {
      const { offset, limit } = parseQuery(ctx, SessionEventsQuerySchema);
      const file = await find(ctx);
      sendJson(ctx, (await answer(file, () => sessionEventsPage(state, file, offset, limit))) satisfies SessionEvents);
    })
    .get('/api/sessions/:key/events/:i/line', async (ctx) => {
      const { i } = parseParams(ctx, EventParamsSchema);
      const file = await find(ctx);
      const line = await answer(file, () => eventLine(state, file, i));
      if (line === null) throw notFound(`no line of ${file.rel} matches event ${i}`);
      sendJson(ctx, line satisfies LogLine);
    });
}
