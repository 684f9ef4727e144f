// POST /api/logout: clears the sign-in cookie (the guard has already checked token and write header).
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Ok } from '../../../shared/common.ts';
import { COOKIE } from '../guard.ts';

export function authRoutes(): Router {
  return new Router().post('/api/logout', (ctx) => {
    ctx.set('Set-Cookie', `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
    sendJson(ctx, { ok: true } satisfies Ok);
  });
}
