import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compareText, debugFloat, debugString, display, fixed, percent, sortedJson, thousands } from '../../server/engine/format.ts';

const format = suite('format');

format('fixed decimals round exact ties to even, as the CLI does', () => {
  assert.is(fixed(0.125, 2), '0.12');
  assert.is(fixed(0.875, 2), '0.88');
  assert.is(fixed(12.5, 0), '12');
  assert.is(fixed(2.5, 0), '2');
  assert.is(fixed(3.5, 0), '4');
});

format('fixed decimals round non-ties from the exact binary value', () => {
  assert.is(fixed(0.4642857142857143, 2), '0.46');
  assert.is(fixed(0.5258044340133321, 2), '0.53');
  assert.is(fixed(1.005, 2), '1.00'); // 1.005 is stored just below 1.005
  assert.is(fixed(-0.499, 3), '-0.499');
  assert.is(fixed(-0.001, 2), '-0.00');
});

format('fixed decimals never print an exponent', () => {
  assert.is(fixed(1e21, 1), '1000000000000000000000.0');
  assert.is(fixed(1e-7, 2), '0.00');
});

format('display prints the shortest digits with no exponent and no trailing .0', () => {
  assert.is(display(0.3), '0.3');
  assert.is(display(1), '1');
  assert.is(display(20), '20');
  assert.is(display(1e-7), '0.0000001');
  assert.is(display(1e21), '1000000000000000000000');
  assert.is(display(-0), '-0');
  assert.is(display(Number.NaN), 'NaN');
  assert.is(display(Number.POSITIVE_INFINITY), 'inf');
});

format('debug floats keep a .0 or an exponent', () => {
  assert.is(debugFloat(2), '2.0');
  assert.is(debugFloat(1e-7), '1e-7');
  assert.is(debugFloat(0.5), '0.5');
  assert.is(debugFloat(1.5e20), '1.5e20');
});

format('thousands and percent read as the CLI prints them', () => {
  assert.is(thousands(4513), '4,513');
  assert.is(thousands(6), '6');
  assert.is(thousands(1234567), '1,234,567');
  assert.is(percent(7 / 9), '78%');
  assert.is(percent(1 / 9), '11%');
  assert.is(percent(0.5), '50%');
});

format('sorted JSON orders every object key', () => {
  assert.is(sortedJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
});

format('text order is by code point and debug strings escape quotes and controls', () => {
  assert.ok(compareText('Z', 'a') < 0);
  assert.ok(compareText('\u{ffff}', '\u{10000}') < 0);
  assert.is(debugString('a"b\\c\n'), '"a\\"b\\\\c\\n"');
});

format.run();
