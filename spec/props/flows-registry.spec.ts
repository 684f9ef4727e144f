// Properties of the flow loader and the registry parser over mutated real files: a flow loads or throws an
// Error that says why (422), and a flow that loads is reviewed, rendered and diffed without a throw (a
// throw there would be a 500); servers.json parses or throws a RegistryError, and what parses is written
// back to text that parses to the same entries.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flowDiff } from '../../server/engine/diff.ts';
import { loadFlow } from '../../server/engine/flows.ts';
import { renderFlowShow } from '../../server/engine/flow-show.ts';
import { reviewView } from '../../server/engine/review.ts';
import { parseRegistry, RegistryError, registryText } from '../../server/data/registry.ts';
import { fixtureHome } from '../support/fixtures.ts';
import { check, messageOf } from './check.ts';

const props = suite('props: flows and the registry');

type J = null | boolean | number | string | J[] | { [k: string]: J };

/** Every path into the value (arrays by index, objects by key). */
function paths(value: J, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((x, i) => paths(x, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') for (const k of Object.keys(value)) paths(value[k]!, [...prefix, k], out);
  return out;
}

/** The value with the node at `path` replaced by `next`, or removed when `next` is undefined. */
function edit(value: J, path: (string | number)[], next: J | undefined): J | undefined {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    const inner = edit(copy[head as number]!, rest, next);
    if (inner === undefined) copy.splice(head as number, 1);
    else copy[head as number] = inner;
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const copy = { ...value };
    const inner = edit(copy[head as string]!, rest, next);
    if (inner === undefined) delete copy[head as string];
    else copy[head as string] = inner;
    return copy;
  }
  return value;
}

/** A replacement: a nearby kind of value (numbers out of range, wrong types, huge or odd strings), or none. */
const replacement: fc.Arbitrary<J | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<J>(null, -1, 0, 1, 2, 1.5, -0.5, 1e308, 4294967296, Number.MAX_SAFE_INTEGER + 2, '', '../x', '~', [], {}),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<J>,
  // Deep nesting (put into the text after stringifying): walking it must not overflow the stack.
  fc.nat({ max: 20_000 }).map((d): J => `__DEEP_${d}__`),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

function nodeAt(value: J, path: (string | number)[]): J {
  let v: J = value;
  for (const k of path) v = (v as Record<string | number, J>)[k]!;
  return v;
}

/** A value of the node's own kind (so the file still loads often): another number, string, or a shorter list. */
function sameKind(node: J): fc.Arbitrary<J | undefined> {
  if (typeof node === 'number') {
    return fc.oneof(fc.constantFrom(0, -1, 1, 0.5, 1e-300, 1e300, node + 1, -node), fc.double({ noNaN: true, noDefaultInfinity: true }));
  }
  if (typeof node === 'string') return fc.oneof(fc.constantFrom('', node + node, node.slice(1)), fc.string({ maxLength: 12 }));
  if (typeof node === 'boolean') return fc.constant(!node);
  if (Array.isArray(node)) return fc.nat({ max: node.length }).map((n) => node.slice(0, n));
  return replacement;
}

/** Mutations of a JSON value at random paths, and byte-level damage to its text. */
function mutatedText(original: J): fc.Arbitrary<string> {
  const all = paths(original);
  const one = fc.nat({ max: all.length - 1 }).chain((i) =>
    fc.tuple(fc.constant(i), fc.oneof({ weight: 3, arbitrary: sameKind(nodeAt(original, all[i]!)) }, { weight: 1, arbitrary: replacement })),
  );
  const structural = fc
    .array(one, { minLength: 1, maxLength: 3 })
    .map((edits) => {
      let value: J | undefined = original;
      for (const [i, next] of edits) {
        if (value === undefined) break;
        value = edit(value, all[i]!, next);
      }
      return JSON.stringify(value ?? null).replace(/"__DEEP_(\d+)__"/g, (_, d: string) => '['.repeat(Number(d)) + ']'.repeat(Number(d)));
    });
  const text = JSON.stringify(original, null, 2);
  const damaged = fc.tuple(fc.nat({ max: text.length }), fc.nat({ max: 20 }), fc.string({ maxLength: 5 })).map(([at, len, ins]) => text.slice(0, at) + ins + text.slice(at + len));
  return fc.oneof({ weight: 4, arbitrary: structural }, { weight: 1, arbitrary: damaged });
}

const shopText = readFileSync(join(fixtureHome, 'shop.flow.json'), 'utf8');
const shop = loadFlow(shopText);

props('a mutated flow loads or says why; a flow that loads is reviewed, rendered and diffed', async () => {
  const original = JSON.parse(shopText) as J;
  let loads = 0;
  await check(
    fc.property(mutatedText(original), fc.double({ min: 0, max: 1, noNaN: true }), (text, threshold) => {
      let flow;
      try {
        flow = loadFlow(text);
      } catch (e) {
        assert.type(messageOf(e), 'string');
        return;
      }
      loads++;
      reviewView(flow, threshold);
      renderFlowShow(flow, threshold);
      flowDiff(shop, flow, 0.05, threshold);
      flowDiff(flow, shop, 0.05, threshold);
    }),
    400,
  );
  // Not vacuous: many mutations leave a flow that loads.
  assert.ok(loads >= 40, `only ${loads} of 400 mutated flows loaded`);
});

props('a mutated registry parses or throws a RegistryError, and what parses is written back the same (a second write changes nothing)', async () => {
  const original = JSON.parse(readFileSync(join(fixtureHome, 'servers.json'), 'utf8')) as J;
  let loads = 0;
  await check(
    fc.property(mutatedText(original), (text) => {
      let loaded;
      try {
        loaded = parseRegistry(text);
      } catch (e) {
        if (!(e instanceof RegistryError)) throw new Error(`not a RegistryError: ${messageOf(e)}`);
        return;
      }
      loads++;
      // What parses is written back the same: the entries as understood, and the text once it is written.
      const once = registryText(loaded);
      const again = parseRegistry(once);
      const understood = (r: typeof loaded) => r.servers.map(({ raw: _, ...entry }) => entry);
      assert.equal(understood(again), understood(loaded));
      assert.is(registryText(again), once);
    }),
    400,
  );
  assert.ok(loads >= 40, `only ${loads} of 400 mutated registries parsed`);
});

props.run();
