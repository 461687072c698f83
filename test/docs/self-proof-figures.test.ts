import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { SHAPE_MUTANTS, selfProofCases } from '../../cli/self-proof-cases.ts';
import { CHECKS } from '../../contracts/checks/definitions.ts';
import { ALL_CELLS } from '../../contracts/matrix/cells.ts';
import { RULE_CELL_PAIRS } from '../../contracts/matrix/index.ts';
import { checkBasis } from '../../contracts/verdicts.ts';
import { listDefects } from '../../mocks/defects/catalog.ts';
import { mutantFor } from '../../mocks/defects/mutants/index.ts';
import { statementAccount } from '../../contracts/statement-account.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { documentStatements } from '../../src/spec/statements.ts';
import { expectQuoted } from './quoted-figures.ts';

// Issue 35 item 4: the self-proof's sizes that README and docs/contracts.md quote are computed here
// from the matrix, the mutant generator and the defect catalog, so they follow the code.
const { lifecycle } = serviceContract();
const mutants = RULE_CELL_PAIRS.map((p) => ({ ...p, made: mutantFor(p.rule, p.cell) }));
const live = mutants.filter((m) => !('equivalent' in m.made));
const documentedRule = (rule: string) => lifecycle.rules.get(rule)?.basis.documented === true;
const defects = listDefects();
const account = statementAccount({
  document: readFileSync('spec/service-document.md', 'utf8'),
  statements: documentStatements(),
  cases: selfProofCases(),
});
const documentedDefect = (d: (typeof defects)[number]) =>
  d.breaks.some(documentedRule) ||
  (d.checks ?? []).some((id) =>
    Object.values(CHECKS).some((c) => c.id === id && checkBasis(c, lifecycle).documented),
  );

it('README quotes the self-proof as large as it is', () => {
  expectQuoted('README.md', /\*\*(\d+)\/\d+\*\* generated mutants killed/, live.length);
  expectQuoted('README.md', /\*\*\d+\/(\d+)\*\* generated mutants killed/, live.length);
  expectQuoted(
    'README.md',
    /generated mutants killed \((\d+) equivalent\)/,
    mutants.length - live.length,
  );
  expectQuoted('README.md', /\*\*(\d+)\/\d+\*\* named defects/, defects.length);
  expectQuoted('README.md', /the (\d+) generated mutants, each a whole contract run/, live.length);
  expectQuoted('README.md', /\*\*(\d+)\/\d+\*\* shape mutants/, SHAPE_MUTANTS().length);
  expectQuoted('README.md', /\*\*\d+\/(\d+)\*\* shape mutants/, SHAPE_MUTANTS().length);
  expectQuoted('README.md', /proven part by part: \*\*(\d+) of \d+\*\*/, account.server.judged);
  expectQuoted('README.md', /proven part by part: \*\*\d+ of (\d+)\*\*/, account.server.total);
});

it('docs/contracts.md quotes the matrix, the checks, the mutants and the defects as they are', () => {
  const file = 'docs/contracts.md';
  expectQuoted(file, /\*\*(\d+) cells\*\*/, ALL_CELLS.length);
  expectQuoted(file, /\*\*What is checked\*\* \((\d+) checks/, Object.keys(CHECKS).length);
  expectQuoted(file, /generated mutants, (\d+)\/\d+ killed/, live.length);
  expectQuoted(
    file,
    /\((\d+) by documented checks in a default run/,
    live.filter((m) => documentedRule(m.rule)).length,
  );
  expectQuoted(
    file,
    /(\d+) by\s+assumption checks under `--strict`\)/,
    live.filter((m) => !documentedRule(m.rule)).length,
  );
  expectQuoted(file, /\*\*(\d+) proven equivalent\*\*/, mutants.length - live.length);
  expectQuoted(file, /named defects, (\d+)\/\d+ caught/, defects.length);
  expectQuoted(
    file,
    /--list-defects`\): (\d+) by documented checks/,
    defects.filter(documentedDefect).length,
  );
  expectQuoted(
    file,
    /by documented checks, (\d+) \(those\s+that break only assumptions/,
    defects.filter((d) => !documentedDefect(d)).length,
  );
});
