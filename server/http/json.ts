// Answers are handed to Koa as JSON text, not as objects. Koa's body setter tests an object against the
// global `Response`, and the first touch of that global loads Node's whole fetch implementation (40–50 ms
// here), which would fall on the first answer after start. The text is what Koa would have sent.
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from 'koa';
import { setContentType } from './content-type.ts';

export function sendJson(ctx: Pick<Context, 'set' | 'body'>, value: object): void {
  setContentType(ctx, 'json');
  ctx.body = JSON.stringify(value);
}

/** Items turned into JSON text per turn of the event loop. */
const ITEMS_PER_TURN = 500;

/**
 * `{"<key>": [items…], …rest}` as a stream written a slice of items at a time: an answer of tens of
 * thousands of items never holds the event loop for its whole length. `rest` holds the other fields.
 */
export function sendJsonSliced(ctx: Pick<Context, 'set' | 'body'>, key: string, items: readonly unknown[], rest: object): void {
  setContentType(ctx, 'json');
  async function* text(): AsyncGenerator<string> {
    yield `{${JSON.stringify(key)}:[`;
    for (let i = 0; i < items.length; i += ITEMS_PER_TURN) {
      const slice = items.slice(i, i + ITEMS_PER_TURN).map((item) => JSON.stringify(item));
      yield (i > 0 ? ',' : '') + slice.join(',');
      if (i + ITEMS_PER_TURN < items.length) await nextTurn();
    }
    const tail = JSON.stringify(rest).slice(1);
    yield tail === '}' ? ']}' : `],${tail}`;
  }
  ctx.body = Readable.from(text());
}
