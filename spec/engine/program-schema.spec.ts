import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureHome } from '../support/fixtures.ts';
import { loadFlow, readProgram } from '../../server/engine/flows.ts';

// The program's reader says what the CLI says, in the CLI's order: these texts are fugue's words.
const program = suite('program-schema');

const RET = '{"op":"var","name":"call"}';
const prog = (body: string, ret = RET, extra = '') => `{"fugue_program":1,"body":${body},"ret":${ret}${extra}}`;
const negs = (n: number, inner: string) => '{"op":"neg","arg":'.repeat(n) + inner + '}'.repeat(n);
function nestedIfs(n: number, stmt: string): string {
  let block = `[${stmt}]`;
  for (let i = 0; i < n; i++) block = `[{"stmt":"if","cond":${RET},"then":${block}}]`;
  return block;
}

function readError(text: string): string {
  try {
    readProgram(JSON.parse(text));
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('the program read');
}

const PINNED: [string, string, string][] = [
  ['not an object', '[]', 'invalid type at `program`: an array, expected an object'],
  ['no version', `{"body":[],"ret":${RET}}`, 'missing field `fugue_program` in `program`'],
  ['a version that is not a number', `{"fugue_program":"1","body":[],"ret":${RET}}`, '`fugue_program` must be a non-negative integer format version, found "1"'],
  ['another version, before its unknown fields', '{"fugue_program":2,"extra":1}', 'program format 2 is not supported (this build reads 1)'],
  ['an unknown field, before the fields', prog('5', RET, ',"extra":1'), 'unknown field `extra` in `program`'],
  ['a field named __proto__', prog('[]', RET, ',"__proto__":{}'), 'unknown field `__proto__` in `program`'],
  ['no op', prog('[{"stmt":"let","var":"x","value":{}}]'), 'missing field `op` in `program.body[0].value`'],
  ['an op that is not a string', prog('[{"stmt":"let","var":"x","value":{"op":3}}]'), 'invalid type at `program.body[0].value.op`: number 3, expected a string'],
  ['an unknown op, before unknown fields', prog('[]', '{"op":"pow","extra":1}'), 'unknown op `pow` at `program.ret`'],
  ['an unknown field, before a wrong one', prog('[]', '{"op":"int","value":"x","extra":1}'), 'unknown field `extra` in `program.ret`'],
  ['a number out of range', prog('[]', '{"op":"f64","value":1e400}'), 'invalid type at `program.ret.value`: number Infinity, expected a number'],
  ['a fraction for an int', prog('[]', '{"op":"int","value":1.5}'), 'invalid type at `program.ret.value`: number 1.5, expected an integer'],
  ['a name that is not an identifier', prog('[]', '{"op":"var","name":"1a"}'), '`program.ret.name`: "1a" is not an identifier'],
  ['an unknown stmt', prog('[{"stmt":"while","extra":1}]'), 'unknown stmt `while` at `program.body[0]`'],
  ['a missing field of a stmt', prog('[{"stmt":"let","var":"x"}]'), 'missing field `value` in `program.body[0]`'],
  [
    'arguments that are not a list',
    prog(`[{"stmt":"observe","addr":{"name":"a"},"dist":{"name":"Outcome","args":"no"},"value":${RET}}]`),
    'invalid type at `program.body[0].dist.args`: the string "no", expected an array',
  ],
];

for (const [name, text, message] of PINNED) {
  program(`${name}: ${message}`, () => {
    assert.is(readError(text), message);
  });
}

program('nesting: 100 levels read, the 101st is named, whatever it holds', () => {
  assert.ok(readProgram(JSON.parse(prog('[]', negs(99, '{"op":"int","value":1}')))));
  const deeper = `\`program.ret${'.arg'.repeat(100)}\` nests deeper than 100 levels`;
  assert.is(readError(prog('[]', negs(100, '{"op":"int","value":1}'))), deeper);
  assert.is(readError(prog('[]', negs(100, '5'))), deeper);
});

program('an address checks no depth itself: its fields are read, its index is capped', () => {
  const at = `program.body[0]${'.then[0]'.repeat(49)}`;
  const sample = (addr: string) => nestedIfs(49, `{"stmt":"sample","var":"x","addr":${addr},"dist":{"name":"Outcome"}}`);
  assert.is(readError(prog(sample('{}'))), `missing field \`name\` in \`${at}.addr\``);
  assert.is(readError(prog(sample('{"name":"a","index":3}'))), `\`${at}.addr.index\` nests deeper than 100 levels`);
});

program('absent or null optional fields read as empty, each node keeps the order of its fields', () => {
  const read = readProgram(
    JSON.parse(
      prog(
        `[{"stmt":"if","cond":${RET},"then":[{"stmt":"observe","value":${RET},"dist":{"args":null,"name":"Outcome"},"addr":{"index":null,"name":"a"}}],"else":null}]`,
        '{"args":null,"func":"f","op":"call"}',
      ),
    ),
  );
  assert.is(
    JSON.stringify(read),
    `{"fugue_program":1,"body":[{"stmt":"if","cond":${RET},"then":[{"stmt":"observe","addr":{"name":"a","index":null},"dist":{"name":"Outcome","args":[]},"value":${RET}}],"else":[]}],"ret":{"op":"call","func":"f","args":[]}}`,
  );
});

program("a flow's program: its reason is the flow's, and a null program is the standard one", () => {
  const shop = JSON.parse(readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8')) as { program: unknown };
  shop.program = { fugue_program: 1, body: [], ret: { op: 'var', name: 'call' }, extra: 1 };
  assert.throws(() => loadFlow(JSON.stringify(shop)), (e: Error) => e.message === "the flow's program: unknown field `extra` in `program`");
  shop.program = null;
  assert.is(loadFlow(JSON.stringify(shop)).program, null);
});

program.run();
