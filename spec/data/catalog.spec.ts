// server/data/catalog.ts: the scan of the fixture home as the console sees it, by key, each session log with
// its flow log and confirmation log attached.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCatalog } from '../../server/data/catalog.ts';
import { fixtureHome, requireFixtures } from '../support/fixtures.ts';
import { endsWith } from '../support/assert.ts';

const catalog = suite('catalog');

catalog('the fixture home has twelve session logs and two flows, companions attached', () => {
  requireFixtures();
  const c = buildCatalog(fixtureHome);
  assert.is(c.sessions.length, 12);
  assert.equal(c.flows.map((f) => f.rel), ['shop.flow.json', 'shop.promoted.flow.json']);
  assert.equal(c.flows.map((f) => f.key), ['shop', 'shop.promoted']);
  const served = c.session('20260928T020401.117Z-14662')!;
  endsWith(served.flowLog, 'served/shop/20260928T020401.117Z-14662.flow.jsonl');
  assert.is(served.confirmLog, null);
  const retail = c.session('20260928T020401.312Z-14780')!;
  endsWith(retail.confirmLog, '.confirm.jsonl');
});

catalog.run();
