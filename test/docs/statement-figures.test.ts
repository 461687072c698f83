import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { SHAPE_MUTANTS, selfProofCases } from '../../cli/self-proof-cases.ts';
import { statementAccount } from '../../contracts/statement-account.ts';
import { documentStatements } from '../../src/spec/statements.ts';
import { expectQuoted } from './quoted-figures.ts';

// Issue 35 item 4: a figure a test can compute is checked by that test. The statement account's
// figures quoted in docs/contracts.md are the account of the committed table and self-proof.
const statements = documentStatements();
const account = statementAccount({
  document: readFileSync('spec/service-document.md', 'utf8'),
  statements,
  cases: selfProofCases(),
});

it("docs/contracts.md quotes the statement account's figures as they are", () => {
  const file = 'docs/contracts.md';
  const { server, proof } = account;
  const named = statements.filter((s) => s.kind === 'server' && s.checks.length > 0).length;
  expectQuoted(file, /rules \*\*(\d+) of \d+\*\*\s+proven/, server.judged);
  expectQuoted(file, /rules \*\*\d+ of (\d+)\*\*\s+proven/, server.total);
  expectQuoted(file, /proven in every part \((\d+) named a\s+check\)/, named);
  expectQuoted(file, /of the (\d+) statements\s+naming a check/, proof.named);
  expectQuoted(file, /naming a check, (\d+)\s+judged,/, proof.judged);
  expectQuoted(file, /(\d+) judged in\s+part/, proof.judgedInPart);
  expectQuoted(file, /(\d+) by assumptions only,\s+\d+ with reasons only/, proof.assumptionOnly);
  expectQuoted(file, /(\d+) with\s+reasons only/, proof.reasons);
  expectQuoted(file, /(\d+) unproven\./, proof.unproven);
  expectQuoted(file, /shape\s+check of its answer \((\d+) of them/, SHAPE_MUTANTS().length);
});
