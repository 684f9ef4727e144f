// Who may call, and how the browser is kept from being used against the console (console-api.md §2.1).
// The checks run in this order, and the order is part of the contract:
//  1. Host check (only with --no-auth): Host must be localhost, 127.0.0.1 or [::1] with our port
//     (DNS rebinding defence).
//  2. A non-API path with ?token= is the sign-in link: set the cookie and redirect without the token.
//     A non-API path with ?code= is the one-time link of --open (sign-in-codes.ts): a live code sets the
//     same cookie; a used, late or unknown one redirects with ?sign_in=<why> so the sign-in screen says so.
//     Other non-API paths are the UI, served without a token.
//  3. /api/health passes.
//  4. The token, from the engine_console cookie or Authorization: Bearer, compared in constant time
//     through SHA-256 digests: 401 otherwise (before 404 and 405).
//  5. Changes (POST, PUT, DELETE, PATCH) need X-Engine-Console: 1 (403): a cross-site form cannot send it.
//  6. --read-only refuses every change but logout and the job preview, which write nothing (403).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { forbidden, unauthorized } from './errors.ts';
import type { SignInCodes } from './sign-in-codes.ts';
import { setContentType } from './content-type.ts';

export interface GuardOptions {
  token: string | null;
  readOnly: boolean;
  port: number;
  /** The one-time codes of --open; absent, a ?code= link is refused as unknown. */
  codes?: SignInCodes;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
export const COOKIE = 'engine_console';

const HOST_REFUSED =
  "the Host header must be localhost, 127.0.0.1 or [::1] with the console's port: without a token (--no-auth), the console answers only its own address";
const SIGN_IN =
  'sign in: open the URL with the token that engine-console printed when it started, or send Authorization: Bearer <token>';
const WRITE_HEADER = "a change needs the header X-Engine-Console: 1, which the console's UI sends";
/** POSTs that change nothing on disk, so --read-only lets them through: signing out, and a job's preview. */
const WRITES_NOTHING = new Set(['/api/logout', '/api/jobs/preview']);
const READ_ONLY = "the console is read-only (--read-only): it changes nothing";
const WRONG_LINK =
  '<!doctype html><meta charset="utf-8"><title>engine console</title><p>This link\'s token is not this console\'s. Open the URL engine-console printed when it started.</p>';

/** Equal tokens have equal digests; comparing digests leaks neither timing nor length. */
export function sameToken(candidate: string, token: string): boolean {
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** Every candidate the request presents: each engine_console cookie, and the first Authorization header. */
export function presentedTokens(cookieHeader: string | string[] | undefined, authorization: string | undefined): string[] {
  const out: string[] = [];
  const cookies = cookieHeader === undefined ? [] : Array.isArray(cookieHeader) ? cookieHeader : [cookieHeader];
  for (const header of cookies) {
    for (const piece of header.split(';')) {
      const p = piece.trim();
      if (p.startsWith(`${COOKIE}=`)) out.push(p.slice(COOKIE.length + 1));
    }
  }
  if (authorization?.startsWith('Bearer ')) out.push(authorization.slice('Bearer '.length).trim());
  return out;
}

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

/** Percent-decoding as the original does: bad escapes stay literal, `+` is a space, bytes read as UTF-8. */
export function decodeQueryValue(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '+') bytes.push(0x20);
    else if (c === '%' && /^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The first `name=` piece of the raw query, decoded; null when there is none. */
function queryParam(rawQuery: string, name: string): string | null {
  for (const piece of rawQuery.split('&')) if (piece.startsWith(`${name}=`)) return decodeQueryValue(piece.slice(name.length + 1));
  return null;
}

/** The first `token=` piece of the raw query, decoded; null when there is none. */
export const queryToken = (rawQuery: string) => queryParam(rawQuery, 'token');

/** The same path without the named query parameters (and with `extra` pieces appended). */
export function withoutParams(path: string, rawQuery: string, names: readonly string[], extra: readonly string[] = []): string {
  const named = (p: string) => names.some((n) => p === n || p.startsWith(`${n}=`));
  const kept = [...rawQuery.split('&').filter((p) => p !== '' && !named(p)), ...extra];
  return kept.length ? `${path}?${kept.join('&')}` : path;
}

/** Where the sign-in link sends the browser: the same path without the token. */
export const withoutToken = (path: string, rawQuery: string) => withoutParams(path, rawQuery, ['token']);

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** ?code= → the cookie once; otherwise the same page with ?sign_in=<why>, which the sign-in screen explains. */
function exchangeCode(ctx: Context, code: string, options: GuardOptions): void {
  const result = options.codes && options.token !== null ? options.codes.redeem(code) : ({ ok: false, why: 'unknown' } as const);
  if (result.ok) ctx.set('Set-Cookie', `${COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.set('Location', withoutParams(ctx.path, ctx.querystring, ['code', 'sign_in'], result.ok ? [] : [`sign_in=${result.why}`]));
  ctx.body = '';
}

export function guard(options: GuardOptions) {
  return async function guardRequest(ctx: Context, next: Next): Promise<void> {
    if (options.token === null && !hostAllowed(ctx.get('Host') || undefined, options.port)) throw forbidden(HOST_REFUSED);

    if (!isApi(ctx.path)) {
      const given = queryToken(ctx.querystring);
      const code = given === null ? queryParam(ctx.querystring, 'code') : null;
      if (code !== null) return exchangeCode(ctx, code, options);
      if (given === null) return next();
      if (options.token !== null && !sameToken(given, options.token)) {
        ctx.status = 401;
        setContentType(ctx, 'html');
        ctx.body = WRONG_LINK;
        return;
      }
      if (options.token !== null) ctx.set('Set-Cookie', `${COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      ctx.set('Location', withoutToken(ctx.path, ctx.querystring));
      ctx.body = '';
      return;
    }

    if (ctx.path === '/api/health') return next();

    if (options.token !== null) {
      const token = options.token;
      const candidates = presentedTokens(ctx.req.headers.cookie, ctx.req.headers.authorization);
      // Compare against every candidate: no early exit that would tell which one matched.
      let ok = false;
      for (const c of candidates) ok = sameToken(c, token) || ok;
      if (!ok) throw unauthorized(SIGN_IN);
    }

    if (WRITE_METHODS.has(ctx.method)) {
      if (ctx.get('X-Engine-Console') !== '1') throw forbidden(WRITE_HEADER);
      if (options.readOnly && !WRITES_NOTHING.has(ctx.path)) throw forbidden(READ_ONLY);
    }
    return next();
  };
}
