// The whole HTTP surface on one screen: the middleware in the order it applies, then every resource's
// routes. Order matters: headers wrap everything (errors, redirects and SSE get them too); errors render
// every failure as JSON; the guard decides who may call before any route runs (401 before 404/405).
import Koa from 'koa';
import Router from '@koa/router';
import { REQUEST_BODY_MAX_BYTES } from '../../shared/limits.ts';
import type { State } from '../state.ts';
import { clientWentAway, methodNotAllowed, notFound, renderErrors } from './errors.ts';
import { guard } from './guard.ts';
import { securityHeaders } from './headers.ts';
import type { SignInCodes } from './sign-in-codes.ts';
import { SignIns } from './sign-ins.ts';
import { authRoutes } from './routes/auth.ts';
import { eventsRoutes } from './routes/events.ts';
import { flowsRoutes } from './routes/flows.ts';
import { healthRoutes } from './routes/health.ts';
import { jobsRoutes } from './routes/jobs.ts';
import { metaRoutes } from './routes/meta.ts';
import { overviewRoutes } from './routes/overview.ts';
import { savingsRoutes } from './routes/savings.ts';
import { searchRoutes } from './routes/search.ts';
import { serversRoutes } from './routes/servers.ts';
import { sessionsRoutes } from './routes/sessions.ts';
import { otlpRoutes } from './routes/otlp.ts';
import { sessionViewsRoutes } from './routes/session-views.ts';
import { settingsRoutes } from './routes/settings.ts';
import { stageRoutes } from './routes/stage.ts';
import { trashRoutes } from './routes/trash.ts';
import { replaysRoutes } from './routes/replays.ts';
import { serveUi } from './ui.ts';

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Bodies are JSON whatever their Content-Type says (the original reads them raw). */
async function bodyIsJson(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  if ((WRITES as readonly string[]).includes(ctx.method) && ctx.path.startsWith('/api/')) {
    ctx.request.headers['content-type'] = 'application/json';
  }
  return next();
}

/**
 * koa-body reads JSON bodies of changes. It is loaded on the first change, not at start: it is most of the
 * bundle, and start-up is on the user's clock while the first write is not.
 */
function jsonBody(): Koa.Middleware {
  let parse: Koa.Middleware | null = null;
  return async (ctx, next) => {
    if (!(WRITES as readonly string[]).includes(ctx.method)) return next();
    if (!parse) {
      const { HttpMethodEnum, koaBody } = await import('koa-body');
      parse = koaBody({
        json: true,
        jsonStrict: false,
        jsonLimit: REQUEST_BODY_MAX_BYTES,
        urlencoded: false,
        text: false,
        multipart: false,
        parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
        onError: (err) => {
          throw Object.assign(new Error(`the request body is not JSON: ${err.message}`), { status: 400, expose: true });
        },
      });
    }
    return parse(ctx, next);
  };
}

export function createApp(state: State, report: (err: unknown) => void, codes?: SignInCodes): Koa {
  const signIns = new SignIns();
  const api = new Router();
  // Literal paths before parameters: /api/flows/diff is registered (in flowsRoutes) before /api/flows/:key.
  for (const area of [
    healthRoutes(state),
    metaRoutes(state),
    authRoutes(signIns, state.config.port),
    eventsRoutes(state),
    otlpRoutes(state),
    sessionsRoutes(state),
    searchRoutes(state),
    sessionViewsRoutes(state),
    flowsRoutes(state),
    stageRoutes(state),
    serversRoutes(state),
    jobsRoutes(state),
    overviewRoutes(state),
    savingsRoutes(state),
    settingsRoutes(state),
    trashRoutes(state),
    replaysRoutes(state),
  ]) {
    api.use(area.routes());
  }

  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.on('error', (err: unknown) => {
    if (!clientWentAway(err)) report(err);
  });
  app.use(securityHeaders);
  app.use(renderErrors(report));
  app.use(guard({ token: state.config.token, readOnly: state.config.readOnly, port: state.config.port, codes, signIns }));
  app.use(bodyIsJson);
  app.use(jsonBody());
  app.use(api.routes());
  app.use(async (ctx, next) => {
    if (ctx.path !== '/api' && !ctx.path.startsWith('/api/')) return next();
    const match = api.match(ctx.path, ctx.method);
    if (match.path.length > 0 && !match.route) throw methodNotAllowed(`${ctx.method} is not allowed on ${ctx.path}`);
    throw notFound(`no such endpoint: ${ctx.method} ${ctx.path}`);
  });
  app.use(serveUi(state.config.uiDir, state.config.uiFromDisk));
  return app;
}
