// POST /api/logout: ends the browser's sign-in at once and clears both sign-in cookies (the guard has already
// checked the sign-in and the write header).
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Ok } from '../../../shared/common.ts';
import { cookieNames, cookieValues, signOutCookies } from '../sign-in-cookie.ts';
import type { SignIns } from '../sign-ins.ts';

export function authRoutes(signIns: SignIns, port: number): Router {
  return new Router().post('/api/logout', (ctx) => {
    for (const secret of cookieValues(ctx.req.headers.cookie, cookieNames(port))) signIns.end(secret);
    ctx.set('Set-Cookie', signOutCookies(port));
    sendJson(ctx, { ok: true } satisfies Ok);
  });
}
