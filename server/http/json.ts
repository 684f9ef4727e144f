// Answers are handed to Koa as JSON text, not as objects. Koa's body setter tests an object against the
// global `Response`, and the first touch of that global loads Node's whole fetch implementation (40–50 ms
// here), which would fall on the first answer after start. The text is what Koa would have sent.
import type { Context } from 'koa';
import { setContentType } from './content-type.ts';

export function sendJson(ctx: Pick<Context, 'set' | 'body'>, value: object): void {
  setContentType(ctx, 'json');
  ctx.body = JSON.stringify(value);
}
