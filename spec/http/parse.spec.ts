// server/http/parse.ts: request parts through a schema give a typed value or a 400 ApiError whose message
// is the first issue, named by its field. Contexts are Koa's own, built over a bare request.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Koa, { type Context } from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import * as v from 'valibot';
import { ApiError } from '../../server/http/errors.ts';
import { parseBody, parseParams, parseQuery, parseWith, queryObject } from '../../server/http/parse.ts';

const parse = suite('parse');

function contextFor(url: string, parts: { params?: Record<string, string>; body?: unknown } = {}): Context {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.method = 'POST';
  req.headers = { host: '127.0.0.1' };
  const ctx = new Koa().createContext(req, new ServerResponse(req));
  if (parts.params) Object.assign(ctx, { params: parts.params });
  if ('body' in parts) Object.assign(ctx.request, { body: parts.body });
  return ctx;
}

/** The 400 a call throws, as status and message. */
function refusal(run: () => unknown): [number, string] {
  try {
    run();
  } catch (e) {
    assert.instance(e, ApiError);
    const err = e as ApiError;
    return [err.status, err.message];
  }
  assert.unreachable('no error was thrown');
  return [0, ''];
}

const Page = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer()), '50'),
  key: v.optional(v.string()),
});
const Named = v.object({ name: v.pipe(v.string(), v.minLength(1, 'name: give a name')) });

parse('a valid input comes back typed, with the schema defaults filled in', () => {
  assert.equal(parseWith(Page, {}, 'query'), { limit: 50 });
  assert.equal(parseWith(Page, { limit: '7', key: 'abc' }, 'query'), { limit: 7, key: 'abc' });
});

parse('an invalid input is a 400 that names the field; a message naming it already is kept', () => {
  const [status, message] = refusal(() => parseWith(Page, { limit: 'x' }, 'query'));
  assert.is(status, 400);
  assert.match(message, /^limit: /);
  assert.equal(refusal(() => parseWith(Named, { name: '' }, 'body')), [400, 'name: give a name']);
});

parse('an input with no field to name gives the bare message', () => {
  const [status, message] = refusal(() => parseWith(v.string('a text'), 1, 'body'));
  assert.equal([status, message], [400, 'a text']);
});

parse('query values are single strings: a repeated parameter keeps its first value', () => {
  const ctx = contextFor('/api/x?limit=5&key=a&key=b&empty=');
  assert.equal(queryObject(ctx), { limit: '5', key: 'a', empty: '' });
  assert.equal(parseQuery(ctx, Page), { limit: 5, key: 'a' });
  assert.equal(refusal(() => parseQuery(contextFor('/api/x?limit=1.5'), Page))[0], 400);
});

parse('path parameters parse the same way; none at all counts as an empty object', () => {
  assert.equal(parseParams(contextFor('/api/x', { params: { name: 'shop' } }), Named), { name: 'shop' });
  // valibot's own wording follows the field's name.
  const [status, message] = refusal(() => parseParams(contextFor('/api/x'), Named));
  assert.is(status, 400);
  assert.match(message, /^name: /);
});

parse('an absent or blank body counts as {}; a present one is parsed', () => {
  assert.equal(parseBody(contextFor('/api/x'), Page), { limit: 50 });
  assert.equal(parseBody(contextFor('/api/x', { body: '  \n' }), Page), { limit: 50 });
  assert.equal(parseBody(contextFor('/api/x', { body: { name: 'n' } }), Named), { name: 'n' });
  assert.equal(refusal(() => parseBody(contextFor('/api/x', { body: { name: '' } }), Named)), [400, 'name: give a name']);
  assert.equal(refusal(() => parseBody(contextFor('/api/x', { body: 'text' }), Named))[0], 400);
});

parse.run();
