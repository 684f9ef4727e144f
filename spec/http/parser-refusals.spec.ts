// The answers Node gives before the app sees a request (a URL or headers too long, bytes that are not HTTP,
// an Expect it cannot meet) carry the security headers and the API's error shape, like every answer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { launch, type Launched } from '../support/launch.ts';

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'";

/** Sends raw bytes and reads the whole answer until the console closes the connection. */
function raw(l: Launched, bytes: string): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(l.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(bytes);
  });
}

function assertSecure(headers: Map<string, string>): void {
  assert.is(headers.get('content-security-policy'), CSP);
  assert.is(headers.get('x-content-type-options'), 'nosniff');
  assert.is(headers.get('referrer-policy'), 'no-referrer');
  assert.is(headers.get('x-frame-options'), 'DENY');
}

const refusals = suite('parser refusals');
let c: Launched;
refusals.before(async () => {
  c = await launch();
});
refusals.after(async () => {
  await c.stop();
});

refusals('headers past the parser\'s limit get 431 with the security headers and a JSON error', async () => {
  const res = await raw(c, `GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.is(res.status, 431);
  assertSecure(res.headers);
  assert.equal(JSON.parse(res.body), { error: 'the URL or the headers are too long' });
});

refusals('bytes that are not HTTP get 400 with the security headers', async () => {
  const res = await raw(c, 'NOT HTTP AT ALL\r\n\r\n');
  assert.is(res.status, 400);
  assertSecure(res.headers);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
});

refusals('an Expect the console cannot meet gets 417 with the security headers', async () => {
  const res = await raw(c, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\nConnection: close\r\n\r\n');
  assert.is(res.status, 417);
  assertSecure(res.headers);
});

refusals.run();
