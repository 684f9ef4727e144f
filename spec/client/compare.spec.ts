// client/src/lib/compare.ts: the compare page's address, words and the ticks of the sessions list.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { argumentsText, compareHref, compareOrder, differenceText, tick } from '../../client/src/lib/compare.ts';

const compare = suite('client compare');

compare('the address encodes both keys', () => {
  assert.is(compareHref('a b', 'compare~0a1b2c3d'), '/sessions/compare?a=a%20b&b=compare~0a1b2c3d');
});

compare('differences read as fewer, more or the same', () => {
  assert.is(differenceText(-3, 'count'), '3 fewer');
  assert.is(differenceText(2, 'count'), '2 more');
  assert.is(differenceText(0, 'count'), 'the same');
  assert.is(differenceText(-1796, 'ms'), '1.80 s less');
  assert.is(differenceText(500, 'ms'), '500 ms more');
});

compare('arguments are one line, cut with an ellipsis', () => {
  assert.is(argumentsText({ a: 1 }), '{"a":1}');
  assert.is(argumentsText(null), '');
  assert.is(argumentsText({ long: 'x'.repeat(200) }, 20), '{"long":"xxxxxxxxxx…');
});

compare('ticks keep their order, each once; unticking removes', () => {
  assert.equal(tick([], 'a', true), ['a']);
  assert.equal(tick(['a'], 'b', true), ['a', 'b']);
  assert.equal(tick(['a', 'b'], 'c', true), ['a', 'b', 'c']);
  assert.equal(tick(['a', 'b'], 'a', false), ['b']);
  assert.equal(tick(['a', 'b'], 'b', true), ['a', 'b']);
  assert.is(compareOrder(['a', 'b', 'c'], () => 1), null, 'Compare takes exactly two');
});

compare('the session started first goes on side a', () => {
  const starts: Record<string, number> = { old: 1, young: 2 };
  assert.equal(compareOrder(['young', 'old'], (k) => starts[k]), ['old', 'young']);
  assert.equal(compareOrder(['old', 'young'], (k) => starts[k]), ['old', 'young']);
  assert.equal(compareOrder(['x', 'old'], (k) => starts[k]), ['x', 'old']);
  assert.is(compareOrder(['old'], (k) => starts[k]), null);
});

compare.run();
