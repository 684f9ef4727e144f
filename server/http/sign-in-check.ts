// Whether a request to the API is signed in (spec §5.2), and if not, why, in words a user can act on. The
// token is accepted as Authorization: Bearer or as the sign-in cookie (for scripts that set it); a sign-in
// secret (sign-ins.ts) only as the cookie, so a secret that leaks from the cookie is never a Bearer token.
import type { IncomingHttpHeaders } from 'node:http';
import { SIGN_IN_TTL_MS } from '../../shared/limits.ts';
import { ApiError, unauthorized } from './errors.ts';
import { cookieNames, cookieValues } from './sign-in-cookie.ts';
import type { SignInCheck, SignIns } from './sign-ins.ts';
import { sameToken } from './token.ts';

const AGAIN = 'sign in again: open the URL with the token that engine-console printed when it started, or paste the token';
const SIGN_IN =
  'sign in: open the URL with the token that engine-console printed when it started, or send Authorization: Bearer <token>';
const WRONG_BEARER =
  "the Bearer token is not this console's: send the token engine-console printed when it started (or the one given with --token or ENGINE_CONSOLE_TOKEN)";
const COOKIE_REFUSALS: Readonly<Record<Exclude<SignInCheck, 'live'>, string>> = {
  expired: `this browser's sign-in has expired (a sign-in lasts ${SIGN_IN_TTL_MS / 3_600_000} hours): ${AGAIN}`,
  ended: `this browser's sign-in was ended by signing out: ${AGAIN}`,
  unknown: `this browser's sign-in is not one this console made: a restart of the console ends every sign-in (and may have made a new token): ${AGAIN}`,
};
/** The most telling reason first, when several cookies are refused. */
const REFUSAL_ORDER = ['expired', 'ended', 'unknown'] as const;

/** A presented credential that does not sign in is answered as RFC 6750's invalid_token, which the UI shows. */
const invalid = (message: string) => new ApiError(401, message, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });

/** null when the request is signed in; otherwise the 401 to answer. */
export function signInRefusal(headers: IncomingHttpHeaders, token: string, port: number, signIns: SignIns): ApiError | null {
  const cookies = cookieValues(headers.cookie, cookieNames(port));
  const authorization = headers.authorization;
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : null;
  // Every candidate is compared: no early exit that would tell which one matched.
  let ok = bearer !== null && sameToken(bearer, token);
  const checks = new Set<SignInCheck>();
  for (const value of cookies) {
    const check = signIns.check(value);
    ok = sameToken(value, token) || check === 'live' || ok;
    checks.add(check);
  }
  if (ok) return null;
  if (bearer !== null) return invalid(WRONG_BEARER);
  const why = REFUSAL_ORDER.find((c) => checks.has(c));
  return why === undefined ? unauthorized(SIGN_IN) : invalid(COOKIE_REFUSALS[why]);
}
