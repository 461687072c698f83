import { afterAll, describe, expect, it } from 'vitest';
import { listDefects } from '../../mocks/defects/catalog.ts';
import { failures } from './helpers.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from './support/in-process.ts';
import { judgeDefect, type Verdict } from './support/mutant-run.ts';
import { printScore } from './support/score.ts';

describe('the contract suite raises no false alarm on a conforming deployment', () => {
  it.each([
    ['the documented profile', {}, {}],
    ['the observed profile (the deployed gateway)', { profile: 'observed' as const }, {}],
    ['content answered by redirect', { contentRedirect: true }, {}],
    [
      'the observed profile with content by redirect',
      { profile: 'observed' as const, contentRedirect: true },
      {},
    ],
    ['tasks that fail', { failureRate: 1 }, {}],
    [
      'the observed profile with failing tasks',
      { profile: 'observed' as const, failureRate: 1 },
      {},
    ],
    ['every cell observed (failing tasks, native path)', FULL_MOCK, FULL_TARGET],
    [
      'every cell observed, content by redirect',
      { ...FULL_MOCK, contentRedirect: true },
      FULL_TARGET,
    ],
    [
      'every cell observed, documented profile',
      { familyBound: true, tokens: FULL_MOCK.tokens },
      FULL_TARGET,
    ],
  ])('passes against %s, warning about nothing, --strict too', async (_name, mock, target) => {
    for (const strict of [false, true]) {
      const { report } = await checkInProcess(mock, { ...target, strict });
      expect(failures(report)).toEqual([]);
      expect(report.results.filter((r) => r.outcome === 'warn').map((r) => r.id)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.counts.pass).toBeGreaterThan(40);
    }
  });
});

// The observed profile models no break of a documented rule (it passes above). The deployed gateway has
// four habits that do break one (reference-gateway-facts.md); played as defects on the observed profile,
// each fails the run on the check of the rule it breaks.
describe("the deployed gateway's habits that break documented rules fail the run", () => {
  it.each([
    ['gateway-raw-upstream-body', 'body.no-other-identifier', 'documented §1'],
    ['gateway-result-url-fallback', 'wrapper.result-address', 'documented §2.3'],
    ['gateway-timeout-sweep', 'task.presence-failed', 'documented §2.2'],
    ['gateway-drops-task-id', 'task.presence-completed', 'documented §2.2'],
  ])('%s: %s (%s)', async (defect, check, basis) => {
    const failing = { failing: { prompt: 'a storm [mock:fail]' }, budget: 3 };
    const { report } = await checkInProcess({ profile: 'observed', defects: [defect] }, failing);
    const result = report.results.find((r) => r.id === check)!;
    expect(result).toMatchObject({ outcome: 'fail', basisText: basis });
    expect(report.ok).toBe(false);
  });
});

// Every named defect, against the mock on which every cell is observed: the suite fails on a check
// whose rule is one the defect breaks (a default run for a documented rule, --strict for assumptions).
const named: Verdict[] = [];

describe('the contract suite catches every named defect', () => {
  it.each(listDefects().map((d) => [d.name, d] as const))('%s', async (_name, defect) => {
    const verdict = await judgeDefect(defect);
    named.push(verdict);
    expect(
      verdict.caughtBy,
      `failures were: ${verdict.failures.join(' | ') || 'none'}`,
    ).not.toEqual([]);
  });
});

afterAll(() => {
  printScore('named defects', named, listDefects().length);
});
