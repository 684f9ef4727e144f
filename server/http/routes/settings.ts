// GET /api/settings (console-api.md §4.4): the data directory's size by kind (walked in the pool), the four
// binaries, whether the key is set (never its value) and the retention note.
import Router from '@koa/router';
import { sendJson } from '../json.ts';
import type { Settings } from '../../../shared/settings.ts';
import { RETENTION_NOTE } from '../../engine/disk.ts';
import type { State } from '../../state.ts';
import { internal } from '../errors.ts';

export async function settings(state: State): Promise<Settings> {
  const { config } = state;
  const [catalog, disk] = await Promise.all([state.catalog(), state.pool.run('diskUsageTask', config.dataDir)]);
  if (!disk.ok) throw internal(`measuring ${config.dataDir}: ${disk.message}`);
  const binaries = (
    [
      ['engine', config.engine],
      ['engine-proxy', config.proxy],
      ['engine-procedure', config.procedure],
      ['engine-mcp-demo', config.mcpDemo],
    ] as const
  ).map(([name, b]) => ({ name, path: b?.path ?? null, version: b?.version ?? null }));
  return {
    data_dir: config.dataDir,
    disk: disk.value,
    sessions: catalog.sessionCount,
    flows: catalog.flows.length,
    key_set: config.keySet || config.keyFileSet,
    retention_note: RETENTION_NOTE,
    binaries,
    version: config.version,
    read_only: config.readOnly,
    auth: config.token !== null,
  };
}

export function settingsRoutes(state: State): Router {
  const router = new Router();
  router.get('/api/settings', async (ctx) => {
    sendJson(ctx, (await settings(state)) satisfies Settings);
  });
  return router;
}
