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
    // Set as is, before the body (which Koa would otherwise type): ctx.type would add a charset.
    ctx.set('Content-Type', 'text/event-stream');
    ctx.body = stream;
  });
}
