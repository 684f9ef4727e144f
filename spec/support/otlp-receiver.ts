// A trace receiver on loopback for the streaming tests: it takes OTLP/HTTP posts to /v1/traces (protobuf or
// JSON), decodes each with the OTLP definitions, and records the sessions it got; while `down` it answers
// 503 (a collector that is down for a while), which the exporter retries. Tests wait on `until`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJson, decodeProtobuf, type PlainExport } from './otlp-decode.ts';

export interface Receiver {
  url: string;
  /** Session ids in the order their traces arrived (one per accepted request's resource). */
  sessions: string[];
  contentTypes: string[];
  /** Requests answered 503 while down. */
  refused: number;
  down: boolean;
  /** Resolves once `check()` holds after a request (rejects after `ms`). */
  until(check: () => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiters: { check: () => boolean; resolve: () => void }[] = [];
  const notify = () => {
    for (const w of [...waiters]) if (w.check()) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const r: Receiver = {
    url: '',
    sessions: [],
    contentTypes: [],
    refused: 0,
    down: false,
    until(check, ms = 20_000) {
      if (check()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver did not get what the test waits for in ${ms} ms (got ${r.sessions.length} sessions, refused ${r.refused})`)), ms);
        waiters.push({ check, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (r.down) {
        r.refused++;
        res.writeHead(503).end();
        notify();
        return;
      }
      const type = String(req.headers['content-type'] ?? '');
      const body = Buffer.concat(chunks);
      let out: PlainExport;
      try {
        out = type.startsWith('application/json') ? decodeJson(body.toString('utf8')) : decodeProtobuf(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      r.contentTypes.push(type);
      for (const rs of out.resources) r.sessions.push(String(rs.spans.find((s) => s.parentSpanId === '')?.attributes['gen_ai.conversation.id']));
      if (type.startsWith('application/json')) res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return r;
}
