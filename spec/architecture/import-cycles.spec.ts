import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importsOf, sourceFiles } from '../support/source-files.ts';

const test = suite('architecture: import cycles');

/** Every cycle's files, found by a depth-first walk (each cycle reported once, from its first file met). */
export function cyclesIn(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const s = state.get(next);
      if (s === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (s === undefined && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

test('the checker finds a cycle through type-only imports and re-exports', () => {
  const files = new Map([
    ['a.ts', "import type { B } from './b.ts';\n"],
    ['b.ts', "export { c } from './c.ts';\n"],
    ['c.ts', "import { a } from './a.ts';\n// import { d } from './d.ts';\n"],
    ['d.ts', "import { a } from './a.ts';\n"],
  ]);
  const graph = new Map([...files].map(([f, text]) => [f, importsOf(f, text)]));
  assert.equal(cyclesIn(graph), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
});

test('no import cycle in server/, shared/, client/ or bin/', () => {
  const files = sourceFiles();
  assert.ok(files.length > 100, 'the sources were found');
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const cycles = cyclesIn(graph).map((c) => c.join(' -> '));
  assert.equal(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});

test.run();
