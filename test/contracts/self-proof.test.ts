import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { listDefects } from '../../mocks/defects/registry.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { checkMock, failures } from './helpers.ts';

const { lifecycle } = serviceContract();

describe('the contract suite raises no false alarm on a conforming deployment', () => {
  it.each([
    ['the documented profile', {}],
    ['the observed profile (the deployed gateway)', { profile: 'observed' as const }],
    ['content answered by redirect', { contentRedirect: true }],
    ['tasks that fail', { failureRate: 1 }],
    ['the observed profile with failing tasks', { profile: 'observed' as const, failureRate: 1 }],
  ])('passes against %s, warning about nothing', async (_name, mock) => {
    const { report } = await checkMock(mock);
    expect(failures(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'warn').map((r) => r.id)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts.pass).toBeGreaterThan(35);
  });
});

// For every defect the mock can play, the suite must fail on a check whose rule is one the defect
// breaks: a default run when that rule is documented, a --strict run when it is only an assumption.
const score: { name: string; caughtBy: string; strictOnly: boolean }[] = [];

describe('the contract suite catches every defect', () => {
  it.each(listDefects().map((d) => [d.name, d] as const))('%s', async (name, defect) => {
    const documented = defect.breaks.some((id) => lifecycle.rules.get(id)!.basis.documented);
    const strict = !documented;
    // Failure-related defects need a task that fails; the suite itself never asks for one.
    const needsFailure = defect.breaks.some(
      (id) => id === 'presence-when-failed' || id === 'wrapper-failure-status',
    );
    const { report } = await checkMock(
      { defects: [name], failureRate: needsFailure ? 1 : 0 },
      { strict },
    );
    const caught = report.results.filter(
      (r) => r.outcome === 'fail' && r.rule !== undefined && defect.breaks.includes(r.rule),
    );
    expect(
      caught.map((r) => r.id),
      `failures were: ${failures(report).join(' | ') || 'none'}`,
    ).not.toEqual([]);
    expect(report.ok).toBe(false);
    score.push({ name, caughtBy: caught.map((r) => r.id).join(', '), strictOnly: strict });
  });
});

afterAll(() => {
  const total = listDefects().length;
  const strictOnly = score.filter((s) => s.strictOnly).length;
  const line = `defects caught: ${score.length}/${total} (${score.length - strictOnly} by documented checks in a default run, ${strictOnly} by assumption checks under --strict)`;
  console.log(
    `\n${line}\n${score.map((s) => `  ${s.name.padEnd(32)} ${s.caughtBy}${s.strictOnly ? '  [--strict]' : ''}`).join('\n')}`,
  );
  if (process.env['VIDEOTASK_SCORE_FILE'] !== undefined)
    writeFileSync(process.env['VIDEOTASK_SCORE_FILE'], `${line}\n`);
});
