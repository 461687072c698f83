import { CHECKS } from '../../../contracts/index.ts';
import { cellKey, type Cell } from '../../../contracts/matrix/index.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import type { Freedom, FreedomVariation } from '../../../src/spec/freedoms.ts';
import { strictRunFor, verdictOf, type Verdict } from '../../contracts/support/mutant-run.ts';
import { describeDeployment, type Deployment } from './deployment.ts';
import { REPRODUCE } from './seeds.ts';
import { conformingDeployment, runDeployment, type DeploymentRun } from './run-deployment.ts';

/**
 * A defect (a named one, or a generated mutant of one rule in one cell) played on a random conforming
 * deployment instead of the documented mock (issue 31 item 2): the suite must still catch it, with exit
 * 1, on a check of what it breaks. The base may vary anything the document leaves open, except what
 * would leave the defect nothing to break or nothing to show: a variation that may hide the cell's state,
 * one that departs from an assumption the defect breaks (that check warns on the base itself), and,
 * for the native path's cells, a family left unbound.
 */

/** How many bases are tried when a base's run never judged what the defect breaks (a cell it did not observe). */
export const BASE_TRIES = 5;

const NATIVE_ROUTES = new Set(['createPluginTask', 'getPluginTask']);

/** The checks that judge what a defect breaks: those of its rules, and those it names. */
function checksOf(defect: Defect): Set<string> {
  const byRule = Object.values(CHECKS).filter(
    (c) => 'rule' in c && c.rule !== undefined && defect.breaks.includes(c.rule),
  );
  return new Set([...byRule.map((c) => c.id), ...(defect.checks ?? [])]);
}

function allowFor(defect: Defect, cell: Cell | undefined) {
  const own = checksOf(defect);
  return (freedom: Freedom, variation: FreedomVariation): boolean => {
    if (variation.departs.some((check) => own.has(check))) return false;
    if (cell === undefined) return variation.hides.length === 0 && variation.id !== 'unbound';
    if (variation.hides.includes(cell.state)) return false;
    return !(
      freedom.id === 'second-family-unbound' &&
      variation.id === 'unbound' &&
      NATIVE_ROUTES.has(cell.route)
    );
  };
}

/** The conforming deployment of `seed` a defect (in `cell`) is played on: what `reproduce.ts` replays. */
export const baseFor = (defect: Defect, cell: Cell | undefined, seed: number): Deployment =>
  conformingDeployment(seed, allowFor(defect, cell));

/** Whether the run judged what the defect breaks: its rule in its cell, or one of its checks at all. */
function judgedWhatItBreaks(run: DeploymentRun, defect: Defect, cell: Cell | undefined): boolean {
  if (cell !== undefined) {
    const seen = run.report.coverage.cells.find((c) => cellKey(c) === cellKey(cell));
    return defect.breaks.some((rule) => seen?.rules[rule] !== undefined);
  }
  const own = checksOf(defect);
  return run.report.results.some((r) => own.has(r.id) && r.outcome !== 'skip');
}

/** The seed of the `attempt`-th base for a defect: spread over seeds, the same every run. */
export function baseSeed(name: string, attempt: number): number {
  let hash = 2166136261;
  for (const char of `${name}#${attempt}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % 100_000;
}

export interface BaseVerdict extends Verdict {
  /** The base it was caught on (or the last tried), in one line. */
  readonly base: string;
  readonly seed: number;
  /** The command that replays it. */
  readonly reproduce: string;
  readonly exit: 0 | 1 | 2;
  /** Bases tried before, whose runs never judged what it breaks. */
  readonly skipped: number;
}

/**
 * Plays `defect` on conforming bases until one's run judges what it breaks (at most `BASE_TRIES`), and
 * returns the verdict on that base: killed (a failing check claims it, in `cell` when given) and the exit.
 */
export async function judgeOnConformingBase(defect: Defect, cell?: Cell): Promise<BaseVerdict> {
  const strict = strictRunFor(defect);
  let last: BaseVerdict | undefined;
  for (let attempt = 0; attempt < BASE_TRIES; attempt++) {
    const deployment = baseFor(defect, cell, baseSeed(defect.name, attempt));
    const run = await runDeployment(deployment, { defects: [defect], target: { strict } });
    const verdict = verdictOf(defect, run.report, strict, cell);
    last = {
      ...verdict,
      base: describeDeployment(deployment),
      seed: deployment.seed,
      reproduce: `${REPRODUCE} ${deployment.seed} --defect '${defect.name}'`,
      exit: run.exit.code,
      skipped: attempt,
    };
    if (verdict.killed || judgedWhatItBreaks(run, defect, cell)) return last;
  }
  return last!;
}
