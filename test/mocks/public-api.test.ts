import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as node from '../../mocks/index.ts';
import * as neutral from '../../mocks/neutral.ts';
// Issue 36 item 4: `videotask/mocks` exported the core's internals (the task store, the plan, the
// HMAC, the shared state's operations…) beside what docs/mock.md documents. It exports what the
// table "The API in code" lists, and nothing else: the values as the entries export them, the types
// as the entries' sources declare them (read by TypeScript's parser, one list, no copy to keep).

/** The names of the docs' table, and those marked ⬡ (the Node entry's only). */
function documented(): { all: string[]; nodeOnly: string[] } {
  const text = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
  const table = text.split('## The API in code')[1]!.split('\n## ')[0]!;
  const all: string[] = [];
  const nodeOnly: string[] = [];
  for (const row of table.split('\n').filter((line) => line.startsWith('| `'))) {
    const cell = row.split(' | ')[0]!;
    for (const [, name, mark] of cell.matchAll(/`([A-Za-z_]+)[^`]*`( ⬡)?/g)) {
      all.push(name!);
      if (mark !== undefined) nodeOnly.push(name!);
    }
  }
  return { all, nodeOnly };
}

/** The names an entry exports as types only, following `export *` (read from its source). */
function typeExports(entry: URL): string[] {
  const source = ts.createSourceFile(
    entry.pathname,
    readFileSync(entry, 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (clause === undefined && statement.moduleSpecifier !== undefined)
      names.push(
        ...typeExports(new URL((statement.moduleSpecifier as ts.StringLiteral).text, entry)),
      );
    else if (clause !== undefined && ts.isNamedExports(clause))
      for (const element of clause.elements)
        if (statement.isTypeOnly || element.isTypeOnly) names.push(element.name.text);
  }
  return names;
}

const typesOf = (entry: string) => [...new Set(typeExports(new URL(entry, import.meta.url)))];
const TYPE_NAMES = typesOf('../../mocks/index.ts');
const NEUTRAL_TYPE_NAMES = typesOf('../../mocks/neutral.ts');

describe('videotask/mocks exports what docs/mock.md documents', () => {
  const { all, nodeOnly } = documented();
  const values = (entry: object) => Object.keys(entry);
  const sorted = (names: readonly string[]) => [...names].sort();

  it('the Node entry: the table names every value and type it exports, and nothing else', () => {
    expect(sorted(all)).toEqual(sorted([...TYPE_NAMES, ...values(node)]));
  });

  it("the neutral entry: the same without the names marked as the Node entry's", () => {
    expect(sorted(all.filter((name) => !nodeOnly.includes(name)))).toEqual(
      sorted([...NEUTRAL_TYPE_NAMES, ...values(neutral)]),
    );
    expect(nodeOnly).toEqual(expect.arrayContaining(['startMockServer', 'StateFileError']));
  });
});
