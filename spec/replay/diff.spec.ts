// The replay's JSON comparison: RFC 6901 pointers (escaped keys, array indexes), a side without the value, a
// text holding JSON compared inside after `#`, ignored pointers and what lies under them, volatile paths.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReplayCall } from '../../shared/replay.ts';
import { ignoring, jsonDiffs, under } from '../../server/replay/diff.ts';
import { verdictOf, volatilePaths } from '../../server/replay/verdict.ts';

const diff = suite('replay diff');

diff('keys are escaped as RFC 6901 says, arrays by index, a missing side has no field', () => {
  assert.equal(jsonDiffs({ 'a/b': 1, 'c~d': [1, 2] }, { 'a/b': 2, 'c~d': [1], e: null }), [
    { path: '/a~1b', recorded: 1, live: 2 },
    { path: '/c~0d/1', recorded: 2 },
    { path: '/e', live: null },
  ]);
  assert.equal(jsonDiffs({ n: 10 }, { n: 10.0 }), []);
  assert.equal(jsonDiffs({ n: null }, { n: 0 }), [{ path: '/n', recorded: null, live: 0 }]);
});

diff('a text that parses as JSON on both sides is compared inside, its pointer after #', () => {
  const r = { content: [{ type: 'text', text: '{"status":"open","n":1}' }] };
  const l = { content: [{ type: 'text', text: '{"n":1, "status":"closed"}' }] };
  assert.equal(jsonDiffs(r, l), [{ path: '/content/0/text#/status', recorded: 'open', live: 'closed' }]);
  assert.equal(jsonDiffs({ t: 'plain' }, { t: '{"a":1}' }), [{ path: '/t', recorded: 'plain', live: '{"a":1}' }]);
});

diff('an ignored pointer drops what lies under it, not its siblings', () => {
  assert.ok(under('/a/b', '/a'));
  assert.ok(under('/a#/x', '/a'));
  assert.ok(under('/a#/x/y', '/a#/x'));
  assert.not.ok(under('/ab', '/a'));
  assert.not.ok(under('/a#/xy', '/a#/x'));
  const d = [{ path: '/a/b' }, { path: '/ab' }];
  assert.equal(ignoring(d, ['/a']), [{ path: '/ab' }]);
});

diff('errors on either side are verdict error; an equal answer is same', () => {
  const ok = { result: { content: [] } };
  assert.is(verdictOf({ error: { message: 'x' } }, ok, null, []).verdict, 'error');
  assert.is(verdictOf(ok, { result: { isError: true } }, null, []).verdict, 'error');
  assert.is(verdictOf(ok, null, 'timed out', []).error, 'live: timed out');
  assert.is(verdictOf(ok, ok, null, []).verdict, 'same');
});

diff('a path that differs in every compared call of a tool is volatile; one call is no evidence', () => {
  const call = (tool: string, paths: string[]): ReplayCall => ({
    session: 's', line: 1, tool, arguments: {}, verdict: paths.length ? 'differs' : 'same', error: null, site: tool, live_site: tool, recorded: null, live: null,
    diffs: paths.map((path) => ({ path, recorded: 1, live: 2 })),
  });
  const calls = [call('t', ['/at', '/x']), call('t', ['/at']), call('u', ['/at'])];
  assert.equal(volatilePaths(calls), [{ tool: 't', path: '/at', calls: 2 }]);
  assert.equal(volatilePaths([call('t', ['/at']), call('t', [])]), []);
});

diff.run();
