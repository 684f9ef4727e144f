// The trash (issue 15; not in the spec): the list, restoring one folder (409 when an original path is taken
// again) and emptying it. The guard already refuses changes without X-Engine-Console and under --read-only.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import { TrashParamsSchema, type TrashEmptied, type TrashList, type TrashRestored } from '../../../shared/trash.ts';
import { TrashError } from '../../data/trash.ts';
import { emptyTrash, listTrash, restoreFromTrash, TrashConflict, TrashMissing } from '../../data/trash-box.ts';
import type { State } from '../../state.ts';
import { readRegistry, RegistryError } from '../../data/registry.ts';
import { conflict, forbidden, internal, notFound } from '../errors.ts';
import { parseParams } from '../parse.ts';

/** A failed move into the trash or out of it: 403 when refused (a path the console may not touch), else 500. */
export function trashFailure(err: unknown): unknown {
  if (err instanceof TrashError) return err.refused ? forbidden(err.message) : internal(err.message);
  return err;
}

function mapped(err: unknown): unknown {
  if (err instanceof TrashConflict) return conflict(err.message);
  if (err instanceof TrashMissing) return notFound(err.message);
  return trashFailure(err);
}

export function trashRoutes(state: State): Router {
  const dataDir = state.config.dataDir;
  return new Router()
    .get('/api/trash', async (ctx) => {
      const registered = async (): Promise<ReadonlySet<string>> => {
        try {
          return new Set((await readRegistry(dataDir, state.pool)).servers.map((s) => s.name));
        } catch (err) {
          // A registry the console cannot read leaves a removed server's name unchecked: restoring it says why.
          if (err instanceof RegistryError) return new Set();
          throw err;
        }
      };
      sendJson(ctx, (await listTrash(dataDir, registered)) satisfies TrashList);
    })
    .post('/api/trash/:id/restore', async (ctx) => {
      const { id } = parseParams(ctx, TrashParamsSchema);
      try {
        sendJson(ctx, { ok: true, restored: await restoreFromTrash(dataDir, id) } satisfies TrashRestored);
      } catch (err) {
        throw mapped(err);
      }
    })
    .delete('/api/trash', async (ctx) => {
      try {
        sendJson(ctx, { ok: true, removed: await emptyTrash(dataDir) } satisfies TrashEmptied);
      } catch (err) {
        throw mapped(err);
      }
    });
}
