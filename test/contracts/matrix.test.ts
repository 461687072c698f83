import { describe, expect, it } from 'vitest';
import {
  ALL_CELLS,
  cellsOf,
  RULE_CELL_PAIRS,
  RULE_CELLS,
  RUN_WIDE_RULES,
} from '../../contracts/matrix/index.ts';
import { CHECKS } from '../../contracts/index.ts';
import { BREAKERS } from '../../mocks/defects/mutants/breakers.ts';
import { serviceContract } from '../../src/spec/index.ts';

const { lifecycle } = serviceContract();
const cellRules = Object.keys(RULE_CELLS);

describe('the observation space', () => {
  it(
    'has 104 cells: 4 task routes × (5 states × 4 callers + a missing task × 3), ' +
      '4 other routes × 3 callers',
    () => {
      expect(ALL_CELLS).toHaveLength(4 * (5 * 4 + 3) + 4 * 3);
      expect(new Set(ALL_CELLS.map((c) => `${c.route}/${c.state}/${c.caller}`)).size).toBe(104);
    },
  );

  it('places every rule of x-lifecycle.rules in cells, or says why it is judged over the whole run', () => {
    const declared = [...cellRules, ...Object.keys(RUN_WIDE_RULES)].sort();
    expect(declared).toEqual([...lifecycle.rules.keys()].sort());
    expect(cellRules.filter((r) => r in RUN_WIDE_RULES)).toEqual([]);
  });

  it('declares only patterns that name cells of the space', () => {
    for (const [rule, patterns] of Object.entries(RULE_CELLS))
      for (const pattern of patterns) expect(cellsOf(pattern), rule).not.toEqual([]);
  });

  it('has a check for every rule it places in cells, and a mutation of the mock for each', () => {
    const checked = new Set<string>(
      Object.values(CHECKS).flatMap((c) => ('rule' in c ? [c.rule] : [])),
    );
    for (const rule of cellRules) {
      expect(checked.has(rule), rule).toBe(true);
      expect(BREAKERS[rule], rule).toBeDefined();
    }
  });

  it('lists each (rule, cell) pair once', () => {
    const keys = RULE_CELL_PAIRS.map(
      (p) => `${p.rule}@${p.cell.route}/${p.cell.state}/${p.cell.caller}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(511);
  });
});
