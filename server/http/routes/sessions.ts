// The sessions API (console-api.md §4.5–4.8): the list with its filters, one session with every section,
// the raw log as a download, and delete (to the trash, with its flow and confirmation logs).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { CONTENT_TYPES, setContentType } from '../content-type.ts';
import { sendFile } from '../send-file.ts';
import type { Context } from 'koa';
import type { Ok } from '../../../shared/common.ts';
import { CompareQuerySchema, type ClosestSession, type SessionComparison } from '../../../shared/compare.ts';
import { SessionsDownloadQuerySchema, SessionsQuerySchema, type SessionList } from '../../../shared/sessions.ts';
import { closestRecorded } from '../../engine/compare.ts';
import type { SessionFile } from '../../data/catalog.ts';
import { filesOf, sessionDetailFile, sessionsPage, UnreadableSession } from '../../data/sessions.ts';
import { indexedSessions } from '../../data/summaries.ts';
import { moveToTrash } from '../../data/trash.ts';
import { NoSuchSessions, sessionsArchive, sessionsToDownload } from '../../data/sessions-download.ts';
import type { State } from '../../state.ts';
import { WorkerDied } from '../../workers/pool.ts';
import { internal, notFound, unprocessable } from '../errors.ts';
import { parseQuery } from '../parse.ts';
import { trashFailure } from './trash.ts';
import { errorText } from '../../../shared/error-text.ts';
import { CONFIRM_LOG, FLOW_LOG, JSONL } from '../../store/log-names.ts';

/** A file name safe inside Content-Disposition's quotes: only ASCII graphic characters, no `"` or `\`. */
export function downloadName(name: string): string {
  let out = '';
  for (const ch of name) out += ch >= '!' && ch <= '~' && ch !== '"' && ch !== '\\' ? ch : '_';
  return out;
}

export function sessionsRoutes(state: State): Router {
  async function find(ctx: Context): Promise<SessionFile> {
    const key = String((ctx as Context & { params: Record<string, string> }).params.key);
    const file = await state.session(key);
    if (!file) throw notFound(`no session ${JSON.stringify(key)}`);
    return file;
  }

  return new Router()
    .get('/api/sessions', async (ctx) => {
      const query = parseQuery(ctx, SessionsQuerySchema);
      sendJson(ctx, (await sessionsPage(state, query)) satisfies SessionList);
    })
    // A literal path before /api/sessions/:key: a log whose stem is `compare` gets a hashed key (catalog.ts).
    .get('/api/sessions/compare', async (ctx) => {
      const query = parseQuery(ctx, CompareQuerySchema);
      const catalog = await state.catalog();
      const a = catalog.session(query.a);
      if (!a) throw notFound(`no session ${JSON.stringify(query.a)} (a)`);
      const b = catalog.session(query.b);
      if (!b) throw notFound(`no session ${JSON.stringify(query.b)} (b)`);
      const r = await state.pool.run('compareSessionsTask', { a: filesOf(a), b: filesOf(b) });
      if (!r.ok) {
        const file = r.side === 'a' ? a : b;
        throw unprocessable(`${file.rel} is not a session log engine can read: ${r.message}`);
      }
      sendJson(ctx, r.value satisfies SessionComparison);
    })
    // Literal too: a log whose stem is `download` gets a hashed key.
    .get('/api/sessions/download', async (ctx) => {
      const { keys } = parseQuery(ctx, SessionsDownloadQuerySchema);
      let files: SessionFile[];
      try {
        files = await sessionsToDownload(state, keys);
      } catch (err) {
        if (err instanceof NoSuchSessions) throw notFound(err.message);
        throw err;
      }
      setContentType(ctx, 'tar');
      ctx.set('Content-Disposition', `attachment; filename="${downloadName(`sessions-${files.length}.tar`)}"`);
      ctx.body = sessionsArchive(files);
    })
    .get('/api/sessions/:key', async (ctx) => {
      const file = await find(ctx);
      try {
        // Already JSON (a SessionDetail), serialized off the event loop.
        const detail = await sessionDetailFile(state, file);
        sendFile(ctx, detail.fd, detail.bytes, CONTENT_TYPES.json);
      } catch (err) {
        if (err instanceof UnreadableSession) throw unprocessable(`${file.rel} is not a session log engine can read: ${err.message}`);
        if (err instanceof WorkerDied) throw unprocessable(`${file.rel} cannot be shown: ${err.message}`);
        throw err;
      }
    })
    .get('/api/sessions/:key/closest', async (ctx) => {
      const file = await find(ctx);
      const all = await indexedSessions(state);
      const target = all.find((s) => s.key === file.key);
      if (!target) throw unprocessable(`${file.rel} is not a session log engine can read`);
      sendJson(ctx, closestRecorded(target, all) satisfies ClosestSession);
    })
    .get('/api/sessions/:key/raw', async (ctx) => {
      const file = await find(ctx);
      try {
        const st = await stat(file.path);
        ctx.set('Content-Length', String(st.size));
      } catch (err) {
        throw internal(`reading ${file.rel}: ${errorText(err)}`);
      }
      setContentType(ctx, 'ndjson');
      ctx.set('Content-Disposition', `attachment; filename="${downloadName(basename(file.path))}"`);
      ctx.body = createReadStream(file.path);
    })
    .delete('/api/sessions/:key', async (ctx) => {
      const file = await find(ctx);
      const rels = [file.rel];
      const stem = file.rel.slice(0, -JSONL.length);
      if (file.flowLog) rels.push(`${stem}${FLOW_LOG}`);
      if (file.confirmLog) rels.push(`${stem}${CONFIRM_LOG}`);
      try {
        await moveToTrash(state.config.dataDir, rels, state.config.now());
      } catch (err) {
        throw trashFailure(err);
      }
      sendJson(ctx, { ok: true } satisfies Ok);
    });
}
