// Server-Sent Events framing for /api/events: `event: name\ndata: json\n\n`, a `: ping` comment after 15 s of
// quiet, and unsubscribing when the client goes away. A client that lags 256 events behind skips them.
import { PassThrough } from 'node:stream';
import { SSE_BUFFER_EVENTS, SSE_PING_MS } from '../../shared/limits.ts';
import type { Hub, HubEvent } from './hub.ts';

export function frame(e: HubEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** A stream of events for one client; ends when the client leaves or the hub closes everything. */
export function eventStream(hub: Hub, onClose: (close: () => void) => void): PassThrough {
  const stream = new PassThrough();
  let ping: NodeJS.Timeout | null = null;
  let pending = 0;
  const armPing = () => {
    if (ping) clearTimeout(ping);
    ping = setTimeout(() => {
      stream.write(': ping\n\n');
      armPing();
    }, SSE_PING_MS);
    ping.unref();
  };
  const send = (e: HubEvent) => {
    // Backpressure: drop what a slow client cannot take rather than buffer without bound.
    if (pending >= SSE_BUFFER_EVENTS) return;
    pending++;
    stream.write(frame(e), () => {
      pending--;
    });
    armPing();
  };
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    if (ping) clearTimeout(ping);
    unsubscribe();
    stream.end();
  };
  const unsubscribe = hub.subscribe(send, close);
  stream.on('close', close);
  // An initial comment makes proxies and browsers open the stream at once.
  stream.write(': connected\n\n');
  armPing();
  onClose(close);
  return stream;
}
