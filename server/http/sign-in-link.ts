// The two sign-in links on a UI path: `?token=<TOKEN>` (the URL engine-console prints) and `?code=<code>` (the
// one-time link of --open, sign-in-codes.ts). Either one that signs in makes a sign-in (sign-ins.ts) and sets
// its cookies; either way the browser is sent to the same page without the link's piece. A link that does not
// sign in adds ?sign_in=<why>, which the sign-in screen explains beside its form.
import type { Context } from 'koa';
import type { CodeRefusal, SignInCodes } from './sign-in-codes.ts';
import type { SignIns } from './sign-ins.ts';
import { signInCookies } from './sign-in-cookie.ts';
import { sameToken } from './token.ts';

/** Why a link did not sign in: a code's refusal, or a token that is not this console's. */
export type LinkRefusal = CodeRefusal | 'token';

export interface SignInLinkOptions {
  token: string | null;
  port: number;
  signIns: SignIns;
  /** The one-time codes of --open; absent, a ?code= link is refused as unknown. */
  codes?: SignInCodes;
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

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
/** Text for a header: what is not printable ASCII is percent-encoded as UTF-8 (a lone surrogate cannot throw). */
const printable = (text: string): string => text.replace(/[^\x21-\x7e]/gu, (c) => [...Buffer.from(c, 'utf8')].map(hex).join(''));

/**
 * A path of this console for a Location header: leading slashes and backslashes become one slash (a browser
 * reads `//host/` and `/\host/` as another site), and whatever is not printable ASCII is percent-encoded.
 */
export const localPath = (rawPath: string): string => printable(`/${rawPath.replace(/^[/\\]+/, '')}`);

/** The same path, kept on this console, without the named query parameters (and with `extra` pieces appended). */
export function withoutParams(path: string, rawQuery: string, names: readonly string[], extra: readonly string[] = []): string {
  const named = (p: string) => names.some((n) => p === n || p.startsWith(`${n}=`));
  const kept = [...rawQuery.split('&').filter((p) => p !== '' && !named(p)), ...extra].map(printable);
  return kept.length ? `${localPath(path)}?${kept.join('&')}` : localPath(path);
}

/** Where the sign-in link sends the browser: the same path without the token. */
export const withoutToken = (path: string, rawQuery: string) => withoutParams(path, rawQuery, ['token']);

/** Whether the link signs in: a live code, or this console's token (any token under --no-auth, which needs none). */
function linkResult(given: { token: string } | { code: string }, options: SignInLinkOptions): LinkRefusal | null {
  if ('code' in given) {
    if (!options.codes || options.token === null) return 'unknown';
    const result = options.codes.redeem(given.code);
    return result.ok ? null : result.why;
  }
  return options.token === null || sameToken(given.token, options.token) ? null : 'token';
}

/** Answers a sign-in link (true), or leaves the request alone (false) when the path carries none. */
export function answerSignInLink(ctx: Context, options: SignInLinkOptions): boolean {
  const token = queryToken(ctx.querystring);
  const code = token === null ? queryParam(ctx.querystring, 'code') : null;
  if (token === null && code === null) return false;
  const refusal = linkResult(token !== null ? { token } : { code: code ?? '' }, options);
  if (refusal === null && options.token !== null) ctx.set('Set-Cookie', signInCookies(options.port, options.signIns.begin().secret));
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.set('Location', withoutParams(ctx.path, ctx.querystring, ['token', 'code', 'sign_in'], refusal === null ? [] : [`sign_in=${refusal}`]));
  ctx.body = '';
  return true;
}
