// GET /api/events: the Server-Sent Events stream (spec §6). The framing, ping and unsubscribe live in sse.ts.
import Router from '@koa/router';
import { eventStream } from '../../events/sse.ts';
import type { State } from '../../state.ts';

export function eventsRoutes(state: State): Router {
  return new Router().get('/api/events', (ctx) => {
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.set('Cache-Control', 'no-cache');
    ctx.status = 200;
    const stream = eventStream(state.hub, (close) => {
      ctx.req.on('close', close);
    });
    ctx.body = stream;
    // After the body: Koa would otherwise add a charset to the type.
    ctx.set('Content-Type', 'text/event-stream');
  });
}
