import { afterEach, describe, expect, it, vi } from 'vitest';
import { lintSpecCommand } from '../../cli/commands/lint-spec.ts';
import { selfProofCases } from '../../cli/self-proof-cases.ts';
import { statementAccount } from '../../contracts/statement-account.ts';
import { foreignChecks } from '../../contracts/statement-proof.ts';
import { readFileSync } from 'node:fs';
import { documentStatements } from '../../src/spec/statements.ts';

// Issue 31 item 7: `lint-spec --trace` counted a statement as judged as soon as it named a contract
// check. 2.2-error named task.shape, which no case of the self-proof breaking §2.2's `error` was caught
// by (a shape mutant of the field now is); 4-submit-videos named submission.both-paths, which no case
// broke (a gateway without the path now does); 7-content-json-errors named owner.content, whose
// rule it did not name; rows judged only by assumption checks were counted with the rest. A
// statement is now judged only where a self-proof case that breaks it is caught by its own check,
// part by part, and the JSON separates the parts.
// Issue 35 item 6: the trace spoke to no one in particular (about 100 of its 150 lines listed
// information statements): it now leads with what a reader acts on, the rest behind --all.

const statements = documentStatements();
const account = statementAccount({
  document: readFileSync('spec/service-document.md', 'utf8'),
  statements,
  cases: selfProofCases(),
});
const proofOf = (id: string) => account.proofByStatement.find((p) => p.id === id)!;

describe('judged means proven per statement', () => {
  it('counts apart a statement with a part no case proves, and proves a shape part by a case breaking it', () => {
    expect(proofOf('2.3-data-platform')).toMatchObject({
      class: 'judged-in-part',
      gaps: [{ part: 'check wrapper.shape-assumed', checks: ['wrapper.shape-assumed'] }],
    });
    expect(account.gapList.map((g) => g.id)).toContain('2.3-data-platform');
    expect(proofOf('4-submit-videos').judged).toContainEqual(
      expect.objectContaining({
        part: 'check submission.both-paths',
        cases: ['defect videos-path-missing'],
      }),
    );
    // §2.2's `error`: its presence by a rule, its type by the shape mutant of that field only.
    expect(proofOf('2.2-error')).toMatchObject({
      class: 'judged',
      judged: [
        { part: 'rule presence-when-failed', checks: ['task.presence-failed'] },
        { part: 'check task.shape', cases: ['shape mutant field-type:VideoTask.error'] },
      ],
      gaps: [],
    });
    const naming = statements.filter((s) => s.checks.length > 0).length;
    expect(account.proof.named).toBe(naming);
    expect(account.judged).toBeLessThan(naming);
  });

  it('counts apart statements judged by assumption checks only', () => {
    expect(proofOf('4-native-path')).toMatchObject({
      class: 'assumption-only',
      judged: [],
      assumptionOnly: [{ part: 'rule native-shape', checks: ['native.shape'] }],
    });
    expect(account.proof.assumptionOnly).toBeGreaterThan(0);
  });

  it('names the cases that prove a part, and a part no case can break carries its reason', () => {
    expect(proofOf('2.2-object').judged[0]!.cases).toContain('defect wrong-object');
    const resubmit = proofOf('3-rule-1-poll-never-resubmit');
    expect(resubmit).toMatchObject({
      class: 'reasons',
      reasons: [{ part: 'rule no-resubmission' }],
    });
    expect(resubmit.reasons[0]!.why).toMatch(/no deployment can break/);
  });

  it('has no row claiming a check that judges a rule it does not name', () => {
    expect(statements.flatMap((s) => foreignChecks(s).map((c) => `${s.id}: ${c}`))).toEqual([]);
    expect(account.problems).toEqual([]);
  });
});

describe('lint-spec --trace leads with what a reader acts on', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function trace(...flags: string[]): Promise<string> {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((text: string) => printed.push(text));
    expect(await lintSpecCommand.run(['--trace', ...flags])).toBe(0);
    return printed.join('\n');
  }

  it('gaps first, then assumption-only and one-sided statements; the full table with --all', async () => {
    const text = await trace();
    const order = [
      'Gaps: a part of the statement no self-proof case proves',
      'Judged by assumption checks only',
      'Server rules no contract check judges',
    ].map((title) => text.indexOf(`\n${title}`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(text).not.toContain('Other statements no check or client rule judges');
    expect(text).toContain('--all; as data: --json.');
    expect(text.split('\n').length).toBeLessThan(100);
    const all = await trace('--all');
    expect(all).toContain('Other statements no check or client rule judges');
    expect(all).toMatch(/\nParts judged, and the self-proof cases that break them \(\d+\):\n/);
  });
});
