// A later engine's `surprised` sessions (its surprise gate handed back in them): the list filters on it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { SessionListSchema } from '../../shared/sessions.ts';
import { copyHome } from '../support/fixtures.ts';
import { launch, type Launched } from '../support/launch.ts';

const surprised = suite('sessions surprised filter');
let c: Launched;
const home = copyHome();
const SURPRISED = '20260928T020401.195Z-14715';

surprised.before(async () => {
  const gate = {
    action: 'hand_back', address: 'decide#0', after: 9, binding: null, key: null, ms: 0, oracle: {}, predicates: {}, prob: null, probs: {},
    reason: "the session surprised the flow: 5 of the agent's steps in a row averaged 3.42 nats, above 3.10", site: 'get_order_details',
  };
  appendFileSync(join(realpathSync(home.dir), 'served/shop', `${SURPRISED}.flow.jsonl`), `${JSON.stringify(gate)}\n`);
  c = await launch({ dataDir: home.dir });
});
surprised.after(async () => {
  await c?.stop();
  home.cleanup();
});

const keys = async (query: string) => {
  const res = await c.api(`/api/sessions${query}`);
  assert.is(res.status, 200, query);
  return v.parse(SessionListSchema, await res.json()).items.map((s) => [s.key, s.surprised]);
};

surprised('has=surprised lists the sessions the gate handed back in, alone and with other filters', async () => {
  assert.equal(await keys('?has=surprised'), [[SURPRISED, true]]);
  const all = await keys('');
  assert.is(all.length, 12);
  assert.ok(all.filter(([k]) => k !== SURPRISED).every(([, s]) => s === false));
  assert.equal(await keys('?has=surprised&mode=shadow'), []);
});

surprised.run();
