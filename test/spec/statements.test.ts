import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load as loadYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { CLIENT_KINDS, tableProblems } from '../../contracts/statement-account.ts';
import { renderStatementPage } from '../../contracts/statement-page.ts';
import { selfProofCases } from '../../cli/self-proof-cases.ts';
import type { OpenApiDocument } from '../../src/spec/index.ts';
import { traceStatements } from '../../src/spec/statement-trace.ts';
import { documentStatements, readStatements } from '../../src/spec/statements.ts';
import {
  CLIENT_RULE_STATEMENTS,
  withoutReferenceClient,
} from '../client-verdicts/statement-proof.ts';
import { statementParts } from '../../contracts/statement-proof.ts';
import { readServiceDocument } from '../helpers/service-document.ts';
import { testTitles } from '../helpers/test-titles.ts';

// spec/statements.yaml accounts for every statement of the service document (issue 25,
// decisions/020): matched by their words, so a new version of the document fails here naming each
// statement that changed or appeared, with what is mapped to the old one.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const TABLE = readStatements(loadYaml(read('spec/statements.yaml')));
const SPEC = loadYaml(read('spec/openapi.yaml')) as OpenApiDocument;
const DOCUMENT = readServiceDocument();

describe('spec/statements.yaml', () => {
  it('holds every sentence and table row of the service document, each in one statement', () => {
    const { problems } = traceStatements(DOCUMENT, TABLE, {
      documentName: 'spec/service-document.md',
    });
    expect(problems.length, `\n${problems.map((p) => p.message).join('\n\n')}\n`).toBe(0);
  });

  it('names only checks, rules and spec elements that exist; a server rule has a check or a reason', () => {
    // The pointers are read in spec/openapi.yaml as written, $refs unresolved.
    expect(tableProblems(TABLE, SPEC)).toEqual([]);
  });

  it('names only tests that exist, by file and full title', () => {
    const titles = new Map<string, Set<string>>();
    const missing = TABLE.flatMap((s) =>
      s.mock.flatMap(({ file, test }) => {
        if (!existsSync(`${ROOT}${file}`)) return [`${s.id}: no file ${file}`];
        if (!titles.has(file)) titles.set(file, new Set(testTitles(`${ROOT}${file}`)));
        return titles.get(file)!.has(test) ? [] : [`${s.id}: ${file} has no test "${test}"`];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('gives every server rule a check has a part the self-proof breaks, caught by its own check', () => {
    // test/contracts/mutants.e2e.test.ts then shows each such part caught (issue 31 item 7).
    const unprovable = TABLE.filter(
      (s) =>
        s.kind === 'server' &&
        s.checks.length > 0 &&
        !statementParts(s, selfProofCases()).some((p) => p.status !== 'gap'),
    );
    expect(unprovable.map((s) => `${s.id}: ${s.checks.join(', ')}`)).toEqual([]);
  });

  it('is what src/generated/statements.json holds (npm run generate)', () => {
    expect(documentStatements(), 'run `npm run generate`').toEqual(TABLE);
  });

  it('is what docs/statements.md shows a reader (npm run generate)', () => {
    const page = renderStatementPage({
      document: DOCUMENT,
      statements: TABLE,
      cases: selfProofCases(),
    });
    expect(read('docs/statements.md') === page, 'run `npm run generate`').toBe(true);
  });

  it('names a client rule, or why none can judge it, for every client rule and recommendation', () => {
    const open = TABLE.filter(
      (s) => CLIENT_KINDS.has(s.kind) && s.clientRules.length === 0 && !s.clientReason,
    );
    expect(open.map((s) => s.id)).toEqual([]);
  });

  it('gives every statement a judged client rule accounts for a reference client of the rule', () => {
    // test/client-verdicts/self-proof.e2e.test.ts then shows each earning exactly its rule's verdict.
    expect(CLIENT_RULE_STATEMENTS.length).toBeGreaterThan(15);
    const missing = CLIENT_RULE_STATEMENTS.flatMap((entry) =>
      withoutReferenceClient(entry).map((rule) => `${entry.statement.id}: ${rule}`),
    );
    expect(missing).toEqual([]);
  });
});
