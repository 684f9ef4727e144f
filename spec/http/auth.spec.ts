// Spec §5 over HTTP: token by cookie or Bearer, the ?token= sign-in link, the write header, read-only,
// --no-auth's Host check, the security headers everywhere, no caching of API answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import * as v from 'valibot';
import { ErrorBodySchema, OkSchema } from '../../shared/common.ts';
import { HealthSchema, MetaSchema } from '../../shared/meta.ts';
import { bare, launch, type Launched } from '../support/launch.ts';
import { request } from 'node:http';
import { lacks } from '../support/assert.ts';

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'";

function assertSecurityHeaders(res: Response): void {
  assert.is(res.headers.get('content-security-policy'), CSP);
  assert.is(res.headers.get('x-content-type-options'), 'nosniff');
  assert.is(res.headers.get('referrer-policy'), 'no-referrer');
  assert.is(res.headers.get('x-frame-options'), 'DENY');
}

async function errorOf(res: Response): Promise<string> {
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  return v.parse(ErrorBodySchema, await res.json()).error;
}

/** A raw request with a chosen Host header (fetch will not let us set it). */
function withHost(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

const auth = suite('auth');
let c: Launched;
auth.before(async () => {
  c = await launch();
});
auth.after(async () => {
  await c.stop();
});

auth('health answers without a token, with the version', async () => {
  const res = await bare(c, '/api/health');
  assert.is(res.status, 200);
  const body = v.parse(HealthSchema, await res.json());
  assert.is(body.ok, true);
  assertSecurityHeaders(res);
  assert.is(res.headers.get('cache-control'), 'no-store');
});

auth('the API without a token is 401 with WWW-Authenticate, before 404 and 405', async () => {
  for (const path of ['/api/meta', '/api/nope', '/api', '/api/sessions']) {
    const res = await bare(c, path);
    assert.is(res.status, 401, path);
    assert.is(res.headers.get('www-authenticate'), 'Bearer');
    assert.match(await errorOf(res), /sign in/);
    assertSecurityHeaders(res);
  }
  assert.is((await bare(c, '/api/overview', { method: 'PUT' })).status, 401);
});

auth('a wrong token, a lowercase bearer and a look-alike cookie are refused', async () => {
  assert.is((await bare(c, '/api/meta', { headers: { Authorization: 'Bearer wrong' } })).status, 401);
  assert.is((await bare(c, '/api/meta', { headers: { Authorization: `bearer ${c.token}` } })).status, 401);
  assert.is((await bare(c, '/api/meta', { headers: { Cookie: `other_engine_console=${c.token}` } })).status, 401);
  assert.is((await bare(c, '/api/meta', { headers: { Authorization: `Bearer ${c.token}x` } })).status, 401);
});

auth('the token is accepted as a Bearer header or as the cookie among others', async () => {
  const a = await bare(c, '/api/meta', { headers: { Authorization: `Bearer ${c.token}` } });
  assert.is(a.status, 200);
  const meta = v.parse(MetaSchema, await a.json());
  assert.is(meta.auth, true);
  assert.is(meta.read_only, false);
  assert.is(meta.data_dir, c.dataDir);
  const b = await bare(c, '/api/meta', { headers: { Cookie: `theme=dark; engine_console=${c.token}; x=1` } });
  assert.is(b.status, 200);
});

auth('the sign-in link sets a sign-in cookie (not the token) and redirects to the same URL without the token', async () => {
  const res = await bare(c, `/sessions/x?view=raw&token=${c.token}`);
  assert.is(res.status, 303);
  assert.is(res.headers.get('location'), '/sessions/x?view=raw');
  const cookies = res.headers.getSetCookie();
  assert.is(cookies.length, 2);
  const m = /^engine_console=([0-9a-f]{64}); HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/.exec(cookies[0]!);
  assert.ok(m, cookies[0]);
  assert.is(cookies[1], `engine_console_${c.port}=${m![1]}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`);
  assert.is(res.headers.get('cache-control'), 'no-store');
  assertSecurityHeaders(res);
  const root = await bare(c, `/?token=${c.token}`);
  assert.is(root.headers.get('location'), '/');
});

auth('a sign-in link with another token sets no cookie and sends the browser to the sign-in screen with the reason', async () => {
  const res = await bare(c, '/sessions?token=nope');
  assert.is(res.status, 303);
  assert.equal(res.headers.getSetCookie(), []);
  assert.is(res.headers.get('location'), '/sessions?sign_in=token');
});

auth('a change without X-Engine-Console: 1 is 403, with it logout clears the cookie', async () => {
  const noHeader = await bare(c, '/api/logout', { method: 'POST', headers: { Authorization: `Bearer ${c.token}` } });
  assert.is(noHeader.status, 403);
  assert.match(await errorOf(noHeader), /X-Engine-Console: 1/);
  const wrong = await bare(c, '/api/logout', { method: 'POST', headers: { Authorization: `Bearer ${c.token}`, 'X-Engine-Console': 'yes' } });
  assert.is(wrong.status, 403);
  const res = await c.api('/api/logout', { method: 'POST' });
  assert.is(res.status, 200);
  v.parse(OkSchema, await res.json());
  assert.equal(res.headers.getSetCookie(), [
    'engine_console=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0',
    `engine_console_${c.port}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`,
  ]);
});

auth('unknown API paths are 404 JSON, known paths with a wrong method 405 JSON', async () => {
  const nf = await c.api('/api/nope');
  assert.is(nf.status, 404);
  assert.is(await errorOf(nf), 'no such endpoint: GET /api/nope');
  const na = await c.api('/api/meta', { method: 'PUT' });
  assert.is(na.status, 405);
  assert.is(await errorOf(na), 'PUT is not allowed on /api/meta');
  assertSecurityHeaders(na);
});

auth('a path parameter that spells a path escape is just an unknown key', async () => {
  assert.is((await c.api('/api/sessions/..%2F..%2Fservers.json')).status, 404);
  assert.is((await c.api('/api/sessions/shop%00')).status, 404);
});

auth('the UI is served without a token and carries the security headers', async () => {
  const res = await bare(c, '/');
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assertSecurityHeaders(res);
  const post = await bare(c, '/', { method: 'POST' });
  assert.is(post.status, 405);
  assert.is((await bare(c, '/assets/missing.js')).status, 404);
  assert.is((await bare(c, '/../etc/passwd')).status, 200 /* normalised by the URL parser to /etc/passwd: a client route */);
});

auth.run();

const readOnly = suite('read-only');
let r: Launched;
readOnly.before(async () => {
  r = await launch({ args: ['--read-only'] });
});
readOnly.after(async () => {
  await r.stop();
});

readOnly('every change is refused with 403, and nothing is written', async () => {
  const before = readdirSync(r.dataDir).sort();
  for (const [method, path] of [
    ['DELETE', '/api/sessions/20260928T020400.548Z-14457'],
    ['POST', '/api/servers'],
    ['POST', '/api/jobs'],
    ['DELETE', '/api/flows/shop'],
  ] as const) {
    const res = await r.api(path, { method, body: '{}' });
    assert.is(res.status, 403, `${method} ${path}`);
    assert.match(await errorOf(res), /read-only/);
  }
  assert.equal(readdirSync(r.dataDir).sort(), before);
  lacks(readdirSync(r.dataDir), 'console');
});

readOnly('a change without the header gets the header message, not the read-only one', async () => {
  const res = await bare(r, '/api/servers', { method: 'POST', headers: { Authorization: `Bearer ${r.token}` } });
  assert.is(res.status, 403);
  assert.match(await errorOf(res), /X-Engine-Console/);
});

readOnly('logout still works in read-only mode', async () => {
  assert.is((await r.api('/api/logout', { method: 'POST' })).status, 200);
  const meta = v.parse(MetaSchema, await (await r.api('/api/meta')).json());
  assert.is(meta.read_only, true);
});

readOnly.run();

const noAuth = suite('no-auth');
let n: Launched;
noAuth.before(async () => {
  n = await launch({ token: null });
});
noAuth.after(async () => {
  await n.stop();
});

noAuth('no token is needed from the console\'s own address', async () => {
  const res = await bare(n, '/api/meta');
  assert.is(res.status, 200);
  assert.is(v.parse(MetaSchema, await res.json()).auth, false);
  assert.match(n.stderr(), /no token: --no-auth/);
});

noAuth('only localhost, 127.0.0.1 or [::1] with the console\'s port pass the Host check', async () => {
  for (const ok of [`localhost:${n.port}`, `127.0.0.1:${n.port}`, `[::1]:${n.port}`, `LOCALHOST:${n.port}`]) {
    assert.is(await withHost(n.port, '/api/health', ok), 200, ok);
  }
  for (const bad of ['localhost', 'localhost:80', `127.0.0.2:${n.port}`, '[::1]', `0.0.0.0:${n.port}`, `localhost.evil.example:${n.port}`, `evil.example:${n.port}`]) {
    assert.is(await withHost(n.port, '/api/health', bad), 403, bad);
    assert.is(await withHost(n.port, '/', bad), 403, bad);
  }
});

noAuth.run();

