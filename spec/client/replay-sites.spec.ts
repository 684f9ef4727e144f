// A replay run's counts per flow site: recorded and live answers counted apart, the flow's sites first in its
// order, then other sites by name; the flow's sites no call fed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReplayCall } from '../../shared/replay.ts';
import { countsBySite, sitesNotFed } from '../../client/src/lib/replay-sites.ts';

const sites = suite('replay counts per flow site');

const call = (site: string | null, live_site: string | null): ReplayCall => ({
  session: 's', line: 1, tool: 't', arguments: {}, verdict: 'same', diffs: [], error: null, site, live_site, recorded: null, live: null,
});

sites('recorded and live are counted apart; the flow\'s order first, then others by name', () => {
  const run = {
    flow_sites: ['search', 'lookup', 'lookup (error)', 'unused'],
    calls: [call('lookup', 'lookup (error)'), call('lookup', 'lookup'), call('zeta', null), call('alpha', 'alpha'), call('search', 'search')],
  };
  assert.equal(countsBySite(run), [
    { site: 'search', in_flow: true, recorded: 1, live: 1 },
    { site: 'lookup', in_flow: true, recorded: 2, live: 1 },
    { site: 'lookup (error)', in_flow: true, recorded: 0, live: 1 },
    { site: 'alpha', in_flow: false, recorded: 1, live: 1 },
    { site: 'zeta', in_flow: false, recorded: 1, live: 0 },
  ]);
  assert.equal(sitesNotFed(run), ['unused']);
});

sites('without a flow, every site is outside it and none is left unfed', () => {
  const run = { flow_sites: null, calls: [call('b', 'b'), call('a', null)] };
  assert.equal(countsBySite(run).map((r) => [r.site, r.in_flow]), [['a', false], ['b', false]]);
  assert.equal(sitesNotFed(run), []);
});

sites.run();
