import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { apiPath, errorMessage, queryString, withQueryParam } from '../../client/src/lib/query.ts';
import { compact, jsonLines, jsonSummary, pretty } from '../../client/src/lib/json.ts';

const query = suite('query');

query('query strings leave out undefined, null and empty values', () => {
  assert.is(queryString({ a: 1, b: '', c: null, d: undefined, e: 'x y' }), '?a=1&e=x+y');
  assert.is(queryString({}), '');
  assert.is(queryString(undefined), '');
});

query('path segments are encoded, so a name with a slash stays one segment', () => {
  assert.is(apiPath('servers', 'a/b', 'config'), '/api/servers/a%2Fb/config');
  assert.is(apiPath('sessions', 'stem~ab12cd34'), '/api/sessions/stem~ab12cd34');
});

query('an error message comes from {"error"}, else short text, else the status', () => {
  assert.is(errorMessage(404, 'Not Found', 'application/json', '{"error":"no session \\"x\\""}'), 'no session "x"');
  assert.is(errorMessage(502, 'Bad Gateway', 'text/plain', '  upstream down  '), 'upstream down');
  assert.is(errorMessage(502, 'Bad Gateway', 'text/html', '<html>proxy</html>'), '502 Bad Gateway');
  assert.is(errorMessage(500, '', 'text/plain', ''), '500 error');
  assert.is(errorMessage(500, 'Internal', 'text/plain', 'x'.repeat(301)), '500 Internal');
  assert.is(errorMessage(400, 'Bad', 'application/problem+json', '{"error":"bad"}'), 'bad');
});

query('the token hand-off adds ?token= to the current path, keeping its query and hash', () => {
  assert.is(withQueryParam('/flows', '', 'token', 'abc'), '/flows?token=abc');
  assert.is(withQueryParam('/sessions?mode=shadow', '#x', 'token', 'a b'), '/sessions?mode=shadow&token=a+b#x');
  assert.is(withQueryParam('/?token=old', '', 'token', 'new'), '/?token=new');
});

const json = suite('json');

json('compact collapses whitespace and cuts with an ellipsis that keeps max - 1 characters', () => {
  assert.is(compact({ a: 1 }, 90), '{"a":1}');
  assert.is(compact('a\n  b', 90), 'a b');
  assert.is(compact('abcdef', 4), 'abc…');
  assert.is(pretty({ a: [1] }), '{\n  "a": [\n    1\n  ]\n}');
});

json('JSON lines keep line numbers and flag lines that do not parse', () => {
  const lines = jsonLines('{"a":1}\n\nnot json\r\n[2]\n');
  assert.equal(
    lines.map((l) => [l.n, l.ok]),
    [
      [1, true],
      [3, false],
      [4, true],
    ],
  );
  assert.is(lines[1]!.text, 'not json');
  assert.is(jsonSummary([1]), '1 item');
  assert.is(jsonSummary({ a: 1, b: 2 }), '2 keys');
});

query.run();
json.run();
