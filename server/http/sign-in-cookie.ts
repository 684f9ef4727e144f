// The sign-in cookie, twice: `engine_console` (the spec's name) and `engine_console_<port>`. Browsers keep
// cookies per host, not per port, so a second console on the same host overwrites `engine_console`; the
// port-named one is this console's alone, and either signs in.
import { SIGN_IN_TTL_MS } from '../../shared/limits.ts';

export const COOKIE = 'engine_console';

const ATTRIBUTES = 'HttpOnly; SameSite=Strict; Path=/';

/** The two cookie names this console reads and writes. */
export const cookieNames = (port: number): readonly string[] => [COOKIE, `${COOKIE}_${port}`];

/** The values of the named cookies, in the order the request presents them. */
export function cookieValues(cookieHeader: string | string[] | undefined, names: readonly string[]): string[] {
  const out: string[] = [];
  const headers = cookieHeader === undefined ? [] : Array.isArray(cookieHeader) ? cookieHeader : [cookieHeader];
  for (const header of headers) {
    for (const piece of header.split(';')) {
      const p = piece.trim();
      const eq = p.indexOf('=');
      if (eq > 0 && names.includes(p.slice(0, eq))) out.push(p.slice(eq + 1));
    }
  }
  return out;
}

/** The Set-Cookie lines that sign this browser in with `secret` until it expires. */
export const signInCookies = (port: number, secret: string): string[] =>
  cookieNames(port).map((name) => `${name}=${secret}; ${ATTRIBUTES}; Max-Age=${SIGN_IN_TTL_MS / 1000}`);

/** The Set-Cookie lines that drop both cookies. */
export const signOutCookies = (port: number): string[] => cookieNames(port).map((name) => `${name}=; ${ATTRIBUTES}; Max-Age=0`);
