import type { Defect } from '../defect.ts';
import { cellName, cellOf, sameCell, type MutantCell } from './cell.ts';

/** One way of breaking a rule, applied by a mutant in its cell only: a defect's hooks and what it does. */
export type Mutation = Pick<Defect, 'before' | 'after'> & {
  /** What the broken deployment does, in a few words: "serves the video bytes". */
  readonly does: string;
};

/** A defect that applies `mutation` to the requests of one cell and leaves every other alone. */
export function mutant(rule: string, cell: MutantCell, mutation: Mutation): Defect {
  const { before, after } = mutation;
  return {
    name: `${rule}@${cellName(cell)}`,
    description: `${cellName(cell)}: ${mutation.does}`,
    breaks: [rule],
    ...(before === undefined
      ? {}
      : {
          before: (request, context) =>
            sameCell(cellOf(context), cell) ? before(request, context) : request,
        }),
    ...(after === undefined
      ? {}
      : {
          after: (request, response, context) =>
            sameCell(cellOf(context), cell) ? after(request, response, context) : response,
        }),
  };
}
