// The flows API (console-api.md §4.9–4.12): the list (load errors carried), one flow as a reviewer reads it
// at a threshold, the diff of two flows, the raw file as a download, and delete (to the trash). Thin: check
// the query, find the key (404), load through the cache (422 when the file does not load), answer.
// /api/flows/diff is registered before /api/flows/:key, so the literal path wins.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Context } from 'koa';
import type { Ok } from '../../../shared/common.ts';
import {
  FlowDetailQuerySchema,
  FlowDiffQuerySchema,
  type FlowDetail,
  type FlowDiffView,
  type FlowList,
} from '../../../shared/flows.ts';
import type { FlowFile } from '../../data/catalog.ts';
import { FlowSitesQuerySchema, type FlowSites } from '../../../shared/flow-sites.ts';
import { flowDetail, flowDiffView, flowSummaries, FlowUnreadable, loadedOrThrow, loadFlowEntry } from '../../data/flows.ts';
import { indexedSessions } from '../../data/summaries.ts';
import { flowWhatIf } from '../../data/whatif.ts';
import { WhatIfQuerySchema, type WhatIf } from '../../../shared/whatif.ts';
import { withDecisionLines } from '../../data/flow-evidence-lines.ts';
import { flowSiteEvidence } from '../../engine/flow-sites.ts';
import { siteKeys, siteName } from '../../engine/flows.ts';
import { moveToTrash } from '../../data/trash.ts';
import { debugString, display } from '../../engine/format.ts';
import type { State } from '../../state.ts';
import { ApiError, badRequest, internal, notFound, unprocessable } from '../errors.ts';
import { parseQuery } from '../parse.ts';
import { downloadName } from './sessions.ts';
import { trashFailure } from './trash.ts';
import { errorText } from '../../../shared/error-text.ts';

/** A threshold is a probability: finite, from 0 to 1 (checked before the key is looked up). */
function checkThreshold(t: number): number {
  if (!Number.isFinite(t) || t < 0 || t > 1) throw badRequest(`threshold ${display(t)}: a probability, from 0 to 1`);
  return t;
}

function checkTolerance(t: number): number {
  if (!Number.isFinite(t) || t < 0) throw badRequest('tolerance: a share, 0 or more');
  return t;
}

/** Maps a flow that does not load to 422; anything else goes on as it is. */
async function unreadableAs422<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FlowUnreadable) throw unprocessable(err.message);
    throw err;
  }
}

export function flowsRoutes(state: State): Router {
  async function find(key: string): Promise<FlowFile> {
    const file = (await state.catalog()).flow(key);
    if (!file) throw notFound(`no flow ${debugString(key)}`);
    return file;
  }
  const keyOf = (ctx: Context) => String((ctx as Context & { params: Record<string, string> }).params.key);

  return new Router()
    .get('/api/flows', async (ctx) => {
      sendJson(ctx, { items: await flowSummaries(state) } satisfies FlowList);
    })
    .get('/api/flows/diff', async (ctx) => {
      const query = parseQuery(ctx, FlowDiffQuerySchema);
      const threshold = checkThreshold(query.threshold);
      const tolerance = checkTolerance(query.tolerance);
      if (query.from === undefined || query.to === undefined) {
        throw badRequest('name the two flows to compare: from=KEY&to=KEY');
      }
      const from = { key: query.from, file: await find(query.from) };
      const to = { key: query.to, file: await find(query.to) };
      sendJson(ctx, (await unreadableAs422(() => flowDiffView(state, from, to, threshold, tolerance))) satisfies FlowDiffView);
    })
    .get('/api/flows/:key', async (ctx) => {
      const threshold = checkThreshold(parseQuery(ctx, FlowDetailQuerySchema).threshold);
      const file = await find(keyOf(ctx));
      sendJson(ctx, (await unreadableAs422(() => flowDetail(state, file, threshold))) satisfies FlowDetail);
    })
    .get('/api/flows/:key/sites', async (ctx) => {
      const { limit } = parseQuery(ctx, FlowSitesQuerySchema);
      const file = await find(keyOf(ctx));
      const flow = await unreadableAs422(async () => loadedOrThrow(await loadFlowEntry(state, file)));
      const sites = { key: file.key, domain: flow.domain, sites: siteKeys(flow).map(siteName) };
      const sessions = await indexedSessions(state);
      // Once per version of the index and per flow content (its sites), not per request: one pass over 100k.
      const evidence = state.store.derived(`flowSites:${JSON.stringify([sites, limit])}`, () => flowSiteEvidence(sites, sessions, limit));
      sendJson(ctx, (await withDecisionLines(state, evidence)) satisfies FlowSites);
    })
    .get('/api/flows/:key/whatif', async (ctx) => {
      const query = parseQuery(ctx, WhatIfQuerySchema);
      const threshold = checkThreshold(query.threshold);
      const file = await find(keyOf(ctx));
      sendJson(ctx, (await unreadableAs422(() => flowWhatIf(state, file, threshold, query.sessions))) satisfies WhatIf);
    })
    .get('/api/flows/:key/raw', async (ctx) => {
      const file = await find(keyOf(ctx));
      // Streamed, not read whole: a flow file may be any size. The type is exactly application/json (no
      // charset), as the original answers; set as a header, so Koa adds nothing to it.
      let size: number;
      try {
        size = (await stat(file.path)).size;
      } catch (err) {
        throw internal(`reading ${file.rel}: ${errorText(err)}`);
      }
      ctx.set('Content-Type', 'application/json');
      ctx.set('Content-Length', String(size));
      ctx.set('Content-Disposition', `attachment; filename="${downloadName(basename(file.path))}"`);
      ctx.body = createReadStream(file.path);
    })
    .delete('/api/flows/:key', async (ctx) => {
      const file = await find(keyOf(ctx));
      try {
        await moveToTrash(state.config.dataDir, [file.rel], state.config.now());
      } catch (err) {
        const mapped = trashFailure(err);
        throw mapped instanceof ApiError ? mapped : internal(errorText(err));
      }
      sendJson(ctx, { ok: true } satisfies Ok);
    });
}
