import { describe, expect, it } from 'vitest';
import type { Defect } from '../../mocks/defects/defect.ts';
import { rewriteTaskAnswer, wrapperData } from '../../mocks/defects/support.ts';
import { checkInProcess } from './support/in-process.ts';

// Issue 31 item 6: a rule about a task's answers is judged on every answer the run received for it,
// not only on the first. Each deployment here keeps the rule on the first looks at a finished task and
// breaks it only on a later one (the look a polling interval after the end); the suite must fail the
// rule's own documented check. (The content's second download and the answers no rule of their cell
// reads are in test/contracts/contract-rules-judged-wherever-shown.test.ts.)

/** Breaks a finished task's answers on every look but the first one that shows it finished. */
function onLaterLooks(
  name: string,
  operation: 'getVideo' | 'getVideoGeneration',
  breaks: string,
  change: (body: Record<string, unknown>) => Record<string, unknown>,
): Defect {
  const seen = new Set<string>();
  return {
    name,
    description: `${name}, from the second look at a finished task on`,
    breaks: [breaks],
    after: rewriteTaskAnswer([operation], (body, { task, snap }) => {
      if (snap.status !== 'completed') return undefined;
      if (!seen.has(task.id)) {
        seen.add(task.id);
        return undefined;
      }
      return change(body);
    }),
  };
}

describe('a break that shows only on a later look at a finished task', () => {
  it.each([
    [
      onLaterLooks('drops-completed-at', 'getVideo', 'presence-when-completed', (body) => {
        const { completed_at: _gone, ...rest } = body;
        return rest;
      }),
      'task.presence-completed',
      'documented §2.2',
    ],
    [
      onLaterLooks('empties-metadata-url', 'getVideo', 'result-url-address', (body) => ({
        ...body,
        metadata: { url: '' },
      })),
      'body.result-address',
      'documented §2.2',
    ],
    [
      onLaterLooks('wrapper-code-ok', 'getVideoGeneration', 'wrapper-success-code', (body) => ({
        ...body,
        code: 'ok',
      })),
      'wrapper.success-code',
      'documented §2.3',
    ],
    [
      onLaterLooks(
        'wrapper-progress-words',
        'getVideoGeneration',
        'wrapper-progress-format',
        (body) => ({
          ...body,
          data: { ...wrapperData(body), progress: 'done' },
        }),
      ),
      'wrapper.progress-format',
      'documented §2.3',
    ],
  ])('%#: fails %s (%s)', async (defect, check, basis) => {
    const { report } = await checkInProcess({ defects: [defect] }, { budget: 1 });
    const result = report.results.find((r) => r.id === check)!;
    expect(result.outcome, JSON.stringify(result.violations[0])).toBe('fail');
    expect(result.basisText).toBe(basis);
    expect(result.passes).toBeGreaterThan(0);
    expect(report.ok).toBe(false);
  });
});
