// Removing a server keeps it in the trash, as deleting a session or a flow does: the trash lists it by name,
// restores its entry into servers.json (every key it had, written whole), and refuses with 409 while a
// server of that name is registered again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../shared/common.ts';
import { TrashListSchema, TrashRestoredSchema } from '../../shared/trash.ts';
import { launch, type Launched } from '../support/launch.ts';

const trash = suite('a removed server in the trash');

const FileSchema = v.looseObject({ servers: v.array(v.record(v.string(), v.unknown())) });
const registryOf = (l: Launched) => v.parse(FileSchema, JSON.parse(readFileSync(join(l.dataDir, 'servers.json'), 'utf8')));
const names = (l: Launched) => registryOf(l).servers.map((s) => s.name);
const list = async (l: Launched) => v.parse(TrashListSchema, await (await l.api('/api/trash')).json());

trash('is listed by name, refused while its name is taken again, then restored whole into servers.json', async () => {
  const l = await launch();
  try {
    // A key a later engine wrote rides along through the trash and back.
    const file = registryOf(l);
    const shop = { ...file.servers.find((s) => s.name === 'shop'), later_field: { kept: true } };
    writeFileSync(join(l.dataDir, 'servers.json'), JSON.stringify({ ...file, servers: file.servers.map((s) => (s.name === 'shop' ? shop : s)) }));

    assert.is((await l.api('/api/servers/shop', { method: 'DELETE' })).status, 200);
    assert.not.ok(names(l).includes('shop'), 'shop is gone from servers.json');
    const [item] = (await list(l)).items;
    assert.is(item?.kind, 'server');
    assert.is(item?.server, 'shop');
    assert.equal(item?.files, [{ path: 'servers.json', size_bytes: item?.files[0]?.size_bytes ?? -1, taken: false }]);

    // Registered again: the trash says so, and restoring it is refused with why, changing nothing.
    const again = { name: 'shop', mode: 'record', upstream: { kind: 'stdio', command: ['engine-mcp-demo'], env: [] } };
    assert.is((await l.api('/api/servers', { method: 'POST', body: JSON.stringify(again) })).status, 200);
    assert.is((await list(l)).items.find((e) => e.id === item?.id)?.files[0]?.taken, true);
    const before = readFileSync(join(l.dataDir, 'servers.json'), 'utf8');
    const refused = await l.api(`/api/trash/${item?.id}/restore`, { method: 'POST' });
    assert.is(refused.status, 409);
    assert.is(v.parse(ErrorBodySchema, await refused.json()).error, 'a server named "shop" is registered again: remove or rename it first, then restore');
    assert.is(readFileSync(join(l.dataDir, 'servers.json'), 'utf8'), before);

    // The new one removed (into a folder of its own), the first comes back as it was.
    assert.is((await l.api('/api/servers/shop', { method: 'DELETE' })).status, 200);
    assert.is((await list(l)).items.filter((e) => e.kind === 'server').length, 2);
    const restored = await l.api(`/api/trash/${item?.id}/restore`, { method: 'POST' });
    assert.is(restored.status, 200);
    assert.equal(v.parse(TrashRestoredSchema, await restored.json()).restored, ['servers.json']);
    assert.equal(registryOf(l).servers.find((s) => s.name === 'shop'), shop);
    assert.equal(names(l).filter((n) => n === 'shop').length, 1);
    const left = (await list(l)).items;
    assert.not.ok(left.some((e) => e.id === item?.id), 'its trash folder is gone');
    assert.is(left.filter((e) => e.kind === 'server').length, 1, 'the other removal stays in the trash');
    const view = v.parse(v.object({ items: v.array(v.object({ name: v.string(), mode: v.string() })) }), await (await l.api('/api/servers')).json());
    assert.is(view.items.find((s) => s.name === 'shop')?.mode, 'serve');
  } finally {
    await l.stop();
  }
});

trash.run();
