// The sign-in cookie over HTTP: it carries a sign-in, not the token; the sign-in works only as a cookie and
// ends at once on logout; a refused cookie says why; and two consoles on one host keep their own sign-ins.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { bare, launch, type Launched } from '../support/launch.ts';

/** A browser's cookies for one host: names only, whatever the port (as browsers keep them). */
class HostJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, val]) => `${k}=${val}`).join('; ');
  }
}

async function signInTo(l: Launched, jar: HostJar): Promise<void> {
  const res = await bare(l, `/?token=${l.token}`);
  assert.is(res.status, 303);
  jar.take(res);
}

const meta = (l: Launched, headers: Record<string, string>) => bare(l, '/api/meta', { headers });
const errorOf = async (res: Response) => v.parse(ErrorBodySchema, await res.json()).error;

const signIn = suite('sign-in cookie');
let a: Launched;
let b: Launched;
signIn.before(async () => {
  [a, b] = await Promise.all([launch({ token: 'token-of-a' }), launch({ token: 'token-of-b' })]);
});
signIn.after(async () => {
  await Promise.all([a.stop(), b.stop()]);
});

signIn('the cookie carries a sign-in that works as a cookie but never as a Bearer token', async () => {
  const res = await bare(a, `/?token=${a.token}`);
  const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
  const secret = cookie.slice('engine_console='.length);
  assert.is.not(secret, a.token);
  assert.is((await meta(a, { Cookie: cookie })).status, 200);
  const asBearer = await meta(a, { Authorization: `Bearer ${secret}` });
  assert.is(asBearer.status, 401);
  assert.is(asBearer.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  assert.match(await errorOf(asBearer), /Bearer token is not this console's/);
});

signIn('the token still signs in as a Bearer header and as the cookie, for scripts', async () => {
  assert.is((await meta(a, { Authorization: `Bearer ${a.token}` })).status, 200);
  assert.is((await meta(a, { Cookie: `engine_console=${a.token}` })).status, 200);
  assert.is((await meta(a, { Cookie: `engine_console_${a.port}=${a.token}` })).status, 200);
});

signIn('logout ends the sign-in at once: the same cookie sent again is refused, saying so', async () => {
  const jar = new HostJar();
  await signInTo(a, jar);
  const cookie = jar.header();
  assert.is((await meta(a, { Cookie: cookie })).status, 200);
  const out = await bare(a, '/api/logout', { method: 'POST', headers: { Cookie: cookie, 'X-Engine-Console': '1' } });
  assert.is(out.status, 200);
  const after = await meta(a, { Cookie: cookie });
  assert.is(after.status, 401);
  assert.match(await errorOf(after), /ended by signing out: sign in again/);
});

signIn('a cookie this console never made says that a restart ends every sign-in', async () => {
  const res = await meta(a, { Cookie: `engine_console=${'ab'.repeat(32)}` });
  assert.is(res.status, 401);
  assert.is(res.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  assert.match(await errorOf(res), /restart of the console ends every sign-in/);
  const none = await meta(a, {});
  assert.is(none.headers.get('www-authenticate'), 'Bearer');
});

signIn('signing in to a second console on the same host keeps the first one signed in', async () => {
  const jar = new HostJar();
  await signInTo(a, jar);
  await signInTo(b, jar);
  assert.is((await meta(b, { Cookie: jar.header() })).status, 200);
  assert.is((await meta(a, { Cookie: jar.header() })).status, 200, 'signing in to b signed the browser out of a');
  // Signing out of b leaves a signed in too.
  const out = await bare(b, '/api/logout', { method: 'POST', headers: { Cookie: jar.header(), 'X-Engine-Console': '1' } });
  jar.take(out);
  assert.is((await meta(b, { Cookie: jar.header() })).status, 401);
  assert.is((await meta(a, { Cookie: jar.header() })).status, 200);
});

signIn.run();
