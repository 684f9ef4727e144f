// The answers Node's HTTP server gives on its own, before Koa sees a request: a request its parser refuses
// (431 for a URL or headers past 16 KiB, 408 for one too slow, 400 for bytes that are not HTTP) and an Expect
// header it cannot meet (417). They carry the API's error shape and the security headers like every answer.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { SECURITY_HEADERS } from './headers.ts';

const REFUSALS: Readonly<Record<number, [reason: string, message: string]>> = {
  400: ['Bad Request', 'the request is not HTTP the console can read'],
  408: ['Request Timeout', 'the request did not arrive in time'],
  431: ['Request Header Fields Too Large', 'the URL or the headers are too long'],
};

function statusOf(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const securityLines = () => Object.entries({ ...SECURITY_HEADERS, 'Cache-Control': 'no-store' }).map(([k, v]) => `${k}: ${v}\r\n`).join('');

/** The whole answer to a request the parser refused, as bytes for the socket. */
export function parserRefusal(code: string | undefined): string {
  const status = statusOf(code);
  const [reason, message] = REFUSALS[status] ?? REFUSALS[400]!;
  const body = JSON.stringify({ error: message });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `${securityLines()}Connection: close\r\n\r\n${body}`
  );
}

function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  socket.end(parserRefusal(err.code));
}

function onExpectation(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ error: `the console cannot meet Expect: ${req.headers.expect ?? ''}` });
  res.writeHead(417, {
    ...SECURITY_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function answerNodeRefusals(server: Server): void {
  server.on('clientError', onClientError);
  server.on('checkExpectation', onExpectation);
}
