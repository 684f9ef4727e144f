// Sessions as OpenTelemetry traces: GET /api/otlp (the stream to a collector: where, and how it goes) and,
// downloaded, GET /api/sessions/otlp (every session the list's filters match, or the ticked `keys`, as JSON
// Lines, streamed; how many were left out in a trailer) and GET /api/sessions/:key/otlp (one
// ExportTraceServiceRequest as OTLP/JSON). Mounted before the sessions routes: the literal path wins, and a
// log whose stem is `otlp` gets a hashed key (engine/keys.ts).
import Router from '@koa/router';
import type { Context } from 'koa';
import { SessionOtlpQuerySchema, SessionsOtlpQuerySchema, type OtlpStatus } from '../../../shared/otlp.ts';
import { otlpStatus } from '../../otlp/status.ts';
import { sendJson } from '../json.ts';
import { NoSuchSessions, sessionOtlp, sessionsOtlpLines, sessionsToExport } from '../../data/otlp.ts';
import { UnreadableSession } from '../../data/sessions.ts';
import type { State } from '../../state.ts';
import { WorkerDied } from '../../workers/pool.ts';
import { CONTENT_TYPES } from '../content-type.ts';
import { SKIPPED_TRAILER, sendSpooled } from '../send-spooled.ts';
import type { OtlpSkipped } from '../../workers/tasks/otlp.ts';
import { notFound, unprocessable } from '../errors.ts';
import { parseQuery } from '../parse.ts';
import { downloadName } from './sessions.ts';

export function otlpRoutes(state: State): Router {
  return new Router()
    .get('/api/otlp', (ctx) => {
      sendJson(ctx, otlpStatus(state) satisfies OtlpStatus);
    })
    .get('/api/sessions/otlp', async (ctx) => {
      const query = parseQuery(ctx, SessionsOtlpQuerySchema);
      let files;
      try {
        files = await sessionsToExport(state, query);
      } catch (err) {
        if (err instanceof NoSuchSessions) throw notFound(err.message);
        throw err;
      }
      ctx.set('Content-Disposition', 'attachment; filename="sessions.otlp.jsonl"');
      const skipped: OtlpSkipped[] = [];
      sendSpooled(ctx, sessionsOtlpLines(state, files, query.payloads, skipped), CONTENT_TYPES.ndjson, {
        name: SKIPPED_TRAILER,
        value: () => {
          for (const s of skipped) process.stderr.write(`engine-console: the OTLP export left out ${s.rel}: ${s.message}\n`);
          return String(skipped.length);
        },
      });
    })
    .get('/api/sessions/:key/otlp', async (ctx: Context & { params: Record<string, string> }) => {
      const query = parseQuery(ctx, SessionOtlpQuerySchema);
      const key = String(ctx.params.key);
      const file = (await state.catalog()).session(key);
      if (!file) throw notFound(`no session ${JSON.stringify(key)}`);
      let body: Buffer;
      try {
        body = await sessionOtlp(state, file, query.payloads);
      } catch (err) {
        if (err instanceof UnreadableSession) throw unprocessable(`${file.rel} is not a session log engine can read: ${err.message}`);
        if (err instanceof WorkerDied) throw unprocessable(`${file.rel} cannot be exported: ${err.message}`);
        throw err;
      }
      ctx.set('Content-Type', CONTENT_TYPES.json);
      const stem = file.rel.slice(file.rel.lastIndexOf('/') + 1).replace(/\.jsonl$/, '');
      ctx.set('Content-Disposition', `attachment; filename="${downloadName(`${stem}.otlp.json`)}"`);
      ctx.body = body;
    });
}
