// Who may call, and how the browser is kept from being used against the console (console-api.md §2.1).
// The checks run in this order, and the order is part of the contract:
//  1. Host check (only with --no-auth): Host must be localhost, 127.0.0.1 or [::1] with our port
//     (DNS rebinding defence).
//  2. A non-API path with ?token= or ?code= is a sign-in link (sign-in-link.ts): a sign-in cookie, or the
//     reason it was refused, and a redirect to the same page. Other non-API paths are the UI, served without
//     a token.
//  3. /api/health passes.
//  4. The token as Authorization: Bearer, or the sign-in cookie holding a live sign-in or the token
//     (sign-in-check.ts): 401 otherwise (before 404 and 405).
//  5. Changes (POST, PUT, DELETE, PATCH) need X-Engine-Console: 1 (403): a cross-site form cannot send it.
//  6. --read-only refuses every change but logout and the job preview, which write nothing (403).
import type { Context, Next } from 'koa';
import { forbidden } from './errors.ts';
import { signInRefusal } from './sign-in-check.ts';
import { answerSignInLink, type SignInLinkOptions } from './sign-in-link.ts';

export interface GuardOptions extends SignInLinkOptions {
  readOnly: boolean;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

const HOST_REFUSED =
  "the Host header must be localhost, 127.0.0.1 or [::1] with the console's port: without a token (--no-auth), the console answers only its own address";
const WRITE_HEADER = "a change needs the header X-Engine-Console: 1, which the console's UI sends";
/** POSTs that change nothing on disk, so --read-only lets them through: signing out, and a job's preview. */
const WRITES_NOTHING = new Set(['/api/logout', '/api/jobs/preview']);
const READ_ONLY = "the console is read-only (--read-only): it changes nothing";

/** The Host check of --no-auth. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.trim().toLowerCase();
  let name: string;
  let portText: string | null;
  if (h.startsWith('[')) {
    const close = h.indexOf(']');
    if (close === -1) return false;
    name = h.slice(0, close + 1);
    const rest = h.slice(close + 1);
    portText = rest.startsWith(':') ? rest.slice(1) : null;
  } else {
    const colon = h.lastIndexOf(':');
    name = colon === -1 ? h : h.slice(0, colon);
    portText = colon === -1 ? null : h.slice(colon + 1);
  }
  if (name !== 'localhost' && name !== '127.0.0.1' && name !== '[::1]') return false;
  if (portText === null) return port === 80;
  if (!/^\d{1,5}$/.test(portText)) return false;
  const n = Number(portText);
  return n <= 65535 && n === port;
}

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

export function guard(options: GuardOptions) {
  return async function guardRequest(ctx: Context, next: Next): Promise<void> {
    if (options.token === null && !hostAllowed(ctx.get('Host') || undefined, options.port)) throw forbidden(HOST_REFUSED);

    if (!isApi(ctx.path)) {
      if (answerSignInLink(ctx, options)) return;
      return next();
    }

    if (ctx.path === '/api/health') return next();

    if (options.token !== null) {
      const refusal = signInRefusal(ctx.req.headers, options.token, options.port, options.signIns);
      if (refusal !== null) throw refusal;
    }

    if (WRITE_METHODS.has(ctx.method)) {
      if (ctx.get('X-Engine-Console') !== '1') throw forbidden(WRITE_HEADER);
      if (options.readOnly && !WRITES_NOTHING.has(ctx.path)) throw forbidden(READ_ONLY);
    }
    return next();
  };
}
