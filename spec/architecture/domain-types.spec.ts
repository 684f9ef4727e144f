import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  isArrayLiteralExpression,
  isAsExpression,
  isCallExpression,
  isIdentifier,
  isInterfaceDeclaration,
  isPropertyAccessExpression,
  isStringLiteral,
  isTypeAliasDeclaration,
  isVariableDeclaration,
  SyntaxKind,
} from 'typescript/unstable/ast';
import type { Expression, Node, SourceFile } from 'typescript/unstable/ast';
import { parsedSources, walk } from '../support/source-ast.ts';

const test = suite('architecture: each domain type defined once');

function exported(node: Node): boolean {
  const modifiers = 'modifiers' in node ? node.modifiers : undefined;
  return Array.isArray(modifiers) && modifiers.some((m: Node) => m.kind === SyntaxKind.ExportKeyword);
}

/** `v.picklist([...])`, or an array of string literals (`as const` or not). */
function isLiteralList(init: Expression): boolean {
  const inner = isAsExpression(init) ? init.expression : init;
  if (isArrayLiteralExpression(inner)) return inner.elements.length > 0 && inner.elements.every((e) => isStringLiteral(e));
  if (!isCallExpression(inner)) return false;
  const callee = inner.expression;
  const name = isPropertyAccessExpression(callee) ? callee.name.text : isIdentifier(callee) ? callee.text : '';
  return name === 'picklist';
}

/** The names a file defines a domain type under: exported types and interfaces, and lists of literals. */
export function definedNames(file: SourceFile): string[] {
  const out: string[] = [];
  walk(file, (node) => {
    if ((isTypeAliasDeclaration(node) || isInterfaceDeclaration(node)) && exported(node)) out.push(node.name.text);
    else if (isVariableDeclaration(node) && isIdentifier(node.name) && node.initializer && isLiteralList(node.initializer)) {
      out.push(node.name.text);
    }
  });
  return out;
}

/** Each name defined in more than one file, with those files. */
export function definedTwice(files: ReadonlyMap<string, SourceFile>): string[] {
  const where = new Map<string, Set<string>>();
  for (const [rel, file] of files) {
    for (const name of definedNames(file)) where.set(name, (where.get(name) ?? new Set()).add(rel));
  }
  return [...where]
    .filter(([, rels]) => rels.size > 1)
    .map(([name, rels]) => `${name}: ${[...rels].sort().join(', ')}`)
    .sort();
}

test('no domain type, type name or list of literals is defined in two files', () => {
  const files = parsedSources();
  assert.ok(files.size > 100, 'the sources were parsed');
  const twice = definedTwice(files);
  assert.equal(twice, [], `defined in more than one file (take it from shared/):\n${twice.join('\n')}`);
});

test.run();
