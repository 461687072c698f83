import type { Defect } from '../defect.ts';
import { BREAKERS, type Equivalent } from './breakers.ts';
import type { MutantCell } from './cell.ts';
import { mutant } from './mutation.ts';

export type { MutantCell, MutantCaller, MutantState } from './cell.ts';
export type { Equivalent } from './breakers.ts';

/**
 * The mutant of the mock that breaks `rule` in `cell` only (a fresh one per call: some keep per-task
 * memory), or why no answer can break the rule there. Throws for a rule no breaker knows: every rule
 * the suites judge in cells needs one.
 *
 * @example
 * const defect = mutantFor('owner-only', { route: 'getVideoGeneration', state: 'queued', caller: 'other' });
 * const service = createMockService({ defects: ['equivalent' in defect ? [] : [defect]].flat() });
 */
export function mutantFor(rule: string, cell: MutantCell): Defect | Equivalent {
  const breaker = BREAKERS[rule];
  if (breaker === undefined) throw new RangeError(`No mutation breaks the rule "${rule}"`);
  const mutation = breaker(cell);
  return 'equivalent' in mutation ? mutation : mutant(rule, cell, mutation);
}
