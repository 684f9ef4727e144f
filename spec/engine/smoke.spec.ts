import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { fixtureHome, requireFixtures } from '../support/fixtures.ts';

const fixtures = suite('fixtures');
fixtures('the shared fixture home is in place', () => {
  requireFixtures();
  assert.ok(existsSync(`${fixtureHome}/servers.json`));
});
fixtures.run();
