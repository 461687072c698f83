import { UPSTREAM_FAILURES } from './plan.ts';

/**
 * How a task ID names the scenario that shaped its plan: a 4-bit code and a 20-bit argument
 * (decisions/010). A scenario or argument without a code here is kept in the shared state's extras
 * (code `EXTRAS_CODE`), so a new scenario works before it gets one. Codes are append only.
 */
export interface ScenarioCode {
  readonly code: number;
  readonly scenario: string;
  /** The plan failed by the service's failure rate (an otherwise succeeding task). */
  readonly failByRate?: boolean;
  /** The argument as a number, or `undefined` when this code cannot carry it. */
  encodeArg(arg: string | undefined): number | undefined;
  decodeArg(value: number): string | undefined;
}

/** The scenario and argument are in the extras, verbatim. */
export const EXTRAS_CODE = 15;

const MAX_ARG = 2 ** 20 - 1;

/** A scenario whose plan ignores its argument. */
const argless = (code: number, scenario: string, failByRate?: boolean): ScenarioCode => ({
  code,
  scenario,
  ...(failByRate === true ? { failByRate } : {}),
  encodeArg: () => 0,
  decodeArg: () => undefined,
});

/** An optional numeric argument stored as `value × scale + 1` (0: none), when it reads back the same. */
const numeric = (code: number, scenario: string, scale: number): ScenarioCode => {
  const decodeArg = (value: number) => (value === 0 ? undefined : String((value - 1) / scale));
  return {
    code,
    scenario,
    encodeArg(arg) {
      if (arg === undefined) return 0;
      const stored = Math.round(Number(arg) * scale) + 1;
      const fits = Number.isInteger(stored) && stored >= 1 && stored <= MAX_ARG;
      return fits && decodeArg(stored) === arg ? stored : undefined;
    },
    decodeArg,
  };
};

export const SCENARIO_CODES: readonly ScenarioCode[] = [
  argless(0, 'succeed'),
  argless(1, 'succeed', true),
  {
    code: 2,
    scenario: 'fail',
    encodeArg(arg) {
      if (arg === undefined) return 0;
      const index = UPSTREAM_FAILURES.findIndex((f) => f.code === arg);
      return index < 0 ? undefined : index + 1;
    },
    decodeArg: (value) => (value === 0 ? undefined : UPSTREAM_FAILURES[value - 1]?.code),
  },
  argless(3, 'slow'),
  argless(4, 'stuck'),
  numeric(5, 'unknown', 10),
  numeric(6, 'flaky', 1),
  numeric(7, 'lost-answer', 10),
];

const BY_CODE = new Map(SCENARIO_CODES.map((c) => [c.code, c]));

export function scenarioCode(code: number): ScenarioCode | undefined {
  return BY_CODE.get(code);
}

/** The code for a scenario as chosen at submission, if one exists. */
export function codeFor(scenario: string, failByRate: boolean): ScenarioCode | undefined {
  return SCENARIO_CODES.find(
    (c) => c.scenario === scenario && (c.failByRate ?? false) === failByRate,
  );
}
