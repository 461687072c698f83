import type { VideoStatus } from '../../../src/spec/index.ts';
import type { DefectContext } from '../defect.ts';

/**
 * A cell of the contract suites' observation space (contracts/matrix), as the mock sees a request: the
 * operation, the state of the task the path names (or `missing`, or `n/a` without one), and who calls.
 * The same shape as the suites' `Cell`, declared here because mocks/ never imports contracts/.
 */
export type MutantState = VideoStatus | 'missing' | 'n/a';
export type MutantCaller = 'owner' | 'other' | 'none' | 'invalid';

export interface MutantCell {
  readonly route: string;
  readonly state: MutantState;
  readonly caller: MutantCaller;
}

/** The cell a request falls in (as it arrived), from what the core told the defect hook. */
export function cellOf(context: DefectContext): MutantCell | undefined {
  if (context.operationId === undefined) return undefined;
  let caller: MutantCaller = 'owner';
  if (context.request.headers['authorization'] === undefined) caller = 'none';
  else if (context.caller === undefined) caller = 'invalid';
  else if (context.task !== undefined && context.task.task.owner !== context.caller.user)
    caller = 'other';
  let state: MutantState = 'n/a';
  if (context.taskId !== undefined) state = context.task?.snap.status ?? 'missing';
  return { route: context.operationId, state, caller };
}

export function sameCell(a: MutantCell | undefined, b: MutantCell): boolean {
  return a !== undefined && a.route === b.route && a.state === b.state && a.caller === b.caller;
}

export const cellName = (cell: MutantCell): string => `${cell.route}/${cell.state}/${cell.caller}`;
