// client/src/api/client.ts, the client's only fetch, against a fake fetch: the write header, JSON bodies,
// errors as ApiError with the server's message (status 0 when nothing answered), 401 to the sign-in hook
// and never toasted, quiet calls not toasted, answers parsed by their schema.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import '../../support/solid-browser.ts';
import { installFetch, json, type FetchCall } from '../../support/fake-browser.ts';

const { ApiError, NO_ANSWER, isAbort, request, requestAs, requestText, setClientHooks } = await import('../../../client/src/api/client.ts');

const client = suite('api client');
const realFetch = globalThis.fetch;
let signedOut = 0;
let failed: string[] = [];

client.before.each(() => {
  signedOut = 0;
  failed = [];
  setClientHooks({ unauthorized: () => signedOut++, failed: (e) => failed.push(`${e.status} ${e.message}`) });
});
client.after(() => {
  Object.assign(globalThis, { fetch: realFetch });
});

/** The error a call rejects with. */
async function rejection(p: Promise<unknown>): Promise<InstanceType<typeof ApiError>> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, ApiError);
    return e as InstanceType<typeof ApiError>;
  }
  assert.unreachable('the call did not fail');
  throw new Error('unreachable');
}

const headers = (call: FetchCall | undefined) => (call?.init.headers ?? {}) as Record<string, string>;

client('a GET sends the cookie and no write header; a JSON answer comes back parsed', async () => {
  const calls = installFetch(() => json(200, { items: [1] }));
  assert.equal(await request('/api/sessions', { query: { limit: 5, q: 'a b' } }), { items: [1] });
  assert.is(calls.length, 1);
  assert.is(calls[0]!.url, '/api/sessions?limit=5&q=a+b');
  assert.is(calls[0]!.init.method, 'GET');
  assert.is(calls[0]!.init.credentials, 'include');
  assert.equal(headers(calls[0]), { Accept: 'application/json' });
  assert.is(calls[0]!.init.body, undefined);
});

client('a write adds X-Engine-Console: 1, and a body its JSON and content type', async () => {
  const calls = installFetch(() => json(200, { ok: true }));
  await request('/api/servers', { method: 'POST', body: { name: 'n' } });
  await request('/api/jobs/x', { method: 'DELETE' });
  assert.equal(headers(calls[0]), { Accept: 'application/json', 'X-Engine-Console': '1', 'Content-Type': 'application/json' });
  assert.is(calls[0]!.init.body, '{"name":"n"}');
  assert.equal(headers(calls[1]), { Accept: 'application/json', 'X-Engine-Console': '1' });
});

client('answers: 204 is undefined, text stays text, +json parses, text: true keeps JSON as text', async () => {
  installFetch(({ url }) => {
    if (url === '/none') return new Response(null, { status: 204 });
    if (url === '/text') return new Response('plain', { status: 200, headers: { 'content-type': 'text/plain' } });
    return json(200, { a: 1 }, 'application/problem+json');
  });
  assert.is(await request('/none'), undefined);
  assert.is(await request('/text'), 'plain');
  assert.equal(await request('/json'), { a: 1 });
  assert.is(await requestText('/json'), '{"a":1}');
});

client('an error answer is an ApiError with the server message, and is toasted', async () => {
  installFetch(() => json(404, { error: 'no session "abc"' }));
  const e = await rejection(request('/api/sessions/abc'));
  assert.equal([e.status, e.message, e.name], [404, 'no session "abc"', 'ApiError']);
  assert.equal(failed, ['404 no session "abc"']);
  assert.is(signedOut, 0);
});

client('a quiet call is not toasted; a 401 signs out and is never toasted', async () => {
  installFetch(({ url }) => (url === '/quiet' ? json(409, { error: 'taken' }) : json(401, { error: 'sign in' })));
  assert.is((await rejection(request('/quiet', { quiet: true }))).status, 409);
  assert.equal(failed, []);
  assert.is((await rejection(request('/private'))).status, 401);
  assert.is((await rejection(request('/private', { quiet: true }))).status, 401);
  assert.equal([signedOut, failed], [2, []]);
});

client('no answer at all is status 0 with the "did not answer" message; an abort stays an abort', async () => {
  installFetch(() => Promise.reject(new TypeError('fetch failed')));
  const e = await rejection(request('/api/meta'));
  assert.equal([e.status, e.message], [0, NO_ANSWER]);
  assert.equal(failed, [`0 ${NO_ANSWER}`]);
  installFetch(() => Promise.reject(new DOMException('stopped', 'AbortError')));
  try {
    await request('/api/meta');
    assert.unreachable('an abort must reject');
  } catch (err) {
    assert.ok(isAbort(err), String(err));
  }
  assert.is(failed.length, 1, 'an abort is not toasted');
});

client('JSON that does not parse is an error, not a crash', async () => {
  installFetch(() => new Response('{', { status: 200, headers: { 'content-type': 'application/json' } }));
  const e = await rejection(request('/api/meta'));
  assert.equal([e.status, e.message], [200, 'The console answered with JSON that does not parse.']);
});

client('requestAs gives the parsed shape, or a 500 that says where the answer is off', async () => {
  const Schema = v.object({ items: v.array(v.object({ key: v.string() })) });
  installFetch(() => json(200, { items: [{ key: 'a' }] }));
  assert.equal(await requestAs(Schema, '/api/x'), { items: [{ key: 'a' }] });
  installFetch(() => json(200, { items: [{ key: 1 }] }));
  const e = await rejection(requestAs(Schema, '/api/x'));
  assert.is(e.status, 500);
  assert.match(e.message, /^The console answered \/api\/x in an unexpected shape at items\.0\.key: /);
});

client.run();
