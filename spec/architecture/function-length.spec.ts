import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isBlock, isFunctionLikeDeclaration, SyntaxKind } from 'typescript/unstable/ast';
import type { Node, SourceFile } from 'typescript/unstable/ast';
import { lineOf, parsedSources, walk } from '../support/source-ast.ts';

const test = suite('architecture: function length');

const MAX_BODY_LINES = 120;

interface LongFunction {
  readonly where: string;
  readonly name: string;
  readonly lines: number;
}

/** What a function is called: its own name, or the variable, property or method it is assigned to. */
function nameOf(node: Node, file: SourceFile): string {
  const own = 'name' in node ? node.name : undefined;
  if (own && typeof own === 'object' && 'getText' in own && typeof own.getText === 'function') return String(own.getText(file));
  const parent = node.parent;
  if (parent && (parent.kind === SyntaxKind.VariableDeclaration || parent.kind === SyntaxKind.PropertyAssignment)) return nameOf(parent, file);
  return '(anonymous)';
}

/** Functions whose body spans more lines (its braces included) than the limit. */
export function longFunctions(files: ReadonlyMap<string, SourceFile>, max = MAX_BODY_LINES): LongFunction[] {
  const out: LongFunction[] = [];
  for (const [rel, file] of files) {
    walk(file, (node) => {
      if (!isFunctionLikeDeclaration(node) || !node.body || !isBlock(node.body)) return;
      const first = lineOf(file, node.body.getStart(file));
      const last = lineOf(file, node.body.end);
      const lines = last - first + 1;
      if (lines > max) out.push({ where: `${rel}:${first}`, name: nameOf(node, file), lines });
    });
  }
  return out;
}

test('no function body over 120 lines in server/, shared/, client/ or bin/', () => {
  const files = parsedSources();
  assert.ok(files.size > 100, 'the sources were parsed');
  const long = longFunctions(files).map((f) => `${f.where} ${f.name}: ${f.lines} lines`);
  assert.equal(long, [], `functions over ${MAX_BODY_LINES} lines:\n${long.join('\n')}`);
});

test.run();
