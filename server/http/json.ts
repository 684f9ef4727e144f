// Answers are handed to Koa as JSON text, not as objects. Koa's body setter tests an object against the
// global `Response`, and the first touch of that global loads Node's whole fetch implementation (40–50 ms
// here), which would fall on the first answer after start. The text is what Koa would have sent.
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { setContentType } from './content-type.ts';

export function sendJson(ctx: Pick<Context, 'set' | 'body'>, value: object): void {
  setContentType(ctx, 'json');
  ctx.body = JSON.stringify(value);
}

/**
 * `{"<key>": [items…], …rest}` as a stream: `items` yields the items' JSON text a slice at a time (comma-joined),
 * so an answer of tens of thousands of items is never held, nor holds the event loop, whole. `rest` holds the
 * other fields.
 */
export function sendJsonStream(ctx: Pick<Context, 'set' | 'body'>, key: string, items: AsyncIterable<string>, rest: object): void {
  setContentType(ctx, 'json');
  async function* text(): AsyncGenerator<string> {
    yield `{${JSON.stringify(key)}:[`;
    let first = true;
    for await (const slice of items) {
      if (slice === '') continue;
      yield first ? slice : `,${slice}`;
      first = false;
    }
    const tail = JSON.stringify(rest).slice(1);
    yield tail === '}' ? ']}' : `],${tail}`;
  }
  ctx.body = Readable.from(text());
}
