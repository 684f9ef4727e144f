// Request parts through a shared schema: a typed value, or a 400 whose message is the schema's first issue.
// Defaults (limit 50, threshold 0.3, ...) live in the schemas, so handlers never see undefined.
import type { Context } from 'koa';
import * as v from 'valibot';
import { issueText } from '../../shared/issue-text.ts';
import { badRequest } from './errors.ts';

type AnySchema = v.GenericSchema<unknown, unknown>;

export function parseWith<S extends AnySchema>(schema: S, input: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw badRequest(issueText(result.issues, `the ${what} is not as expected`));
}

/** Query values as single strings: a repeated parameter keeps its first value. */
export function queryObject(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(ctx.query)) {
    const first = Array.isArray(val) ? val[0] : val;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}

export function parseQuery<S extends AnySchema>(ctx: Context, schema: S): v.InferOutput<S> {
  return parseWith(schema, queryObject(ctx), 'query');
}

export function parseParams<S extends AnySchema>(ctx: Context, schema: S): v.InferOutput<S> {
  return parseWith(schema, (ctx as Context & { params?: unknown }).params ?? {}, 'path');
}

/** The JSON body (koa-body has read it); an absent or blank body counts as `{}`. */
export function parseBody<S extends AnySchema>(ctx: Context, schema: S): v.InferOutput<S> {
  const body: unknown = (ctx.request as { body?: unknown }).body;
  const absent = body === undefined || (typeof body === 'string' && body.trim() === '');
  const input = absent ? {} : body;
  return parseWith(schema, input, 'request body');
}
