import { ALL_CELLS, cellKey, cellsOf, type Cell } from './cells.ts';
import { RULE_CELLS, type CellRuleId } from './rule-cells.ts';

export * from './cells.ts';
export * from './routes.ts';
export * from './rule-cells.ts';
export { refusalStatuses } from './refusal-status.ts';

/** Every (rule, cell) pair the matrix declares, rules in declaration order. */
export const RULE_CELL_PAIRS: readonly { readonly rule: CellRuleId; readonly cell: Cell }[] = (
  Object.entries(RULE_CELLS) as [CellRuleId, (typeof RULE_CELLS)[CellRuleId]][]
).flatMap(([rule, patterns]) => {
  const seen = new Set<string>();
  return patterns
    .flatMap((pattern) => cellsOf(pattern))
    .filter((cell) => !seen.has(cellKey(cell)) && seen.add(cellKey(cell)) !== undefined)
    .map((cell) => ({ rule, cell }));
});

const RULES_BY_CELL = new Map<string, CellRuleId[]>(ALL_CELLS.map((c) => [cellKey(c), []]));
for (const { rule, cell } of RULE_CELL_PAIRS) RULES_BY_CELL.get(cellKey(cell))!.push(rule);

/** The rules that apply in a cell. */
export function rulesIn(cell: Cell): readonly CellRuleId[] {
  return RULES_BY_CELL.get(cellKey(cell)) ?? [];
}
