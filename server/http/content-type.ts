// The Content-Type of each kind of answer, whole, as Koa's `ctx.type = short` would set it (mime-types'
// contentType of the short form; spec/http/content-type.spec.ts holds each to it). Set as a header before the
// body, so neither the type setter nor the body setter (which types a body that has none) asks mime-types:
// its database is loaded only when something else needs it (mime-types-lazy.cjs), not on every start.
import type { Context } from 'koa';

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  ndjson: 'application/x-ndjson',
  tar: 'application/x-tar',
} as const;

/** The short forms the types above stand for (what `ctx.type` was given). */
export const SHORT_FORMS: Record<keyof typeof CONTENT_TYPES, string> = {
  json: 'application/json',
  text: 'text/plain',
  html: 'text/html; charset=utf-8',
  ndjson: 'application/x-ndjson',
  tar: 'application/x-tar',
};

export function setContentType(ctx: Pick<Context, 'set'>, kind: keyof typeof CONTENT_TYPES): void {
  ctx.set('Content-Type', CONTENT_TYPES[kind]);
}
