import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The full titles of the tests a vitest file declares, as its reporter joins them (`describe > it`),
 * read from the source without running it: `it`, `test` and `describe` calls and their `.each`,
 * `.runIf`, `.skipIf`, `.only`, `.concurrent` forms, whose title is a string literal or a `+` of string
 * literals. Titles of `.each` tests keep their placeholders (`%s answers 200`). Titles built any other
 * way are not seen: a table that names such a test cannot be checked, so it names one that can.
 */
export function testTitles(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const titles: string[] = [];
  const visit = (node: ts.Node, path: readonly string[]): void => {
    const call = ts.isCallExpression(node) ? testCall(node) : undefined;
    if (call === undefined) {
      node.forEachChild((child) => visit(child, path));
      return;
    }
    const full = [...path, call.title];
    if (call.kind !== 'describe') titles.push(full.join(' > '));
    for (const argument of call.rest) visit(argument, full);
  };
  visit(source, []);
  return titles;
}

const KINDS = new Set(['it', 'test', 'describe']);

/** `it('title', fn)`, `it.each(rows)('title', fn)`, `describe.runIf(x)('title', fn)`, … */
function testCall(
  node: ts.CallExpression,
): { kind: string; title: string; rest: readonly ts.Node[] } | undefined {
  const kind = rootName(node.expression);
  const [first, ...rest] = node.arguments;
  const title = first === undefined ? undefined : literalText(first);
  if (kind === undefined || !KINDS.has(kind) || title === undefined) return undefined;
  return { kind, title, rest };
}

function rootName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression) || ts.isCallExpression(expression))
    return rootName(expression.expression);
  return undefined;
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalText(node.left);
    const right = literalText(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}
