import { CHECKS } from '../../../contracts/index.ts';
import { cellKey, type Cell } from '../../../contracts/matrix/index.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import type { Freedom, FreedomVariation } from '../../../src/spec/freedoms.ts';
import {
  strictRunFor,
  targetJudging,
  verdictOf,
  type Verdict,
} from '../../contracts/support/mutant-run.ts';
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
export const BASE_TRIES = 8;

const NATIVE_ROUTES = new Set(['createPluginTask', 'getPluginTask']);
/** The variations under which the run has no native task: the family unbound, the native path refusing. */
const NO_NATIVE_TASK = new Set(['unbound', 'unbound-listed', 'refuses']);

/** The checks that judge what a defect breaks: those of its rules, and those it names. */
function checksOf(defect: Defect): Set<string> {
  const byRule = Object.values(CHECKS).filter(
    (c) => 'rule' in c && c.rule !== undefined && defect.breaks.includes(c.rule),
  );
  return new Set([...byRule.map((c) => c.id), ...(defect.checks ?? [])]);
}

/** The rules of a completed task's bytes: a defect of them breaks what the content route itself sends. */
const CONTENT_BODY_RULES = new Set([
  'content-binary',
  'content-length-matches',
  'content-range-reassembles',
  'content-head-agrees',
]);

/** The deliveries in which the content route itself sends the bytes, HEAD and Range included. */
const BYTES_AS_SENT = new Set(['streamed', 'octet-stream']);

type Allow = (freedom: Freedom, variation: FreedomVariation) => boolean;

/**
 * What a base may vary for a defect: not an assumption the defect breaks (that check warns on the base
 * itself); not a state the defect's cell is in (for a named defect, no state hidden and a native
 * task); for a defect of the video's bytes, only a delivery by the content route itself (after a
 * redirect the bytes come from a route the defect does not wrap; an older route answers no HEAD);
 * for the native path's cells, a native task; for an `unknown` cell, only the core's own `unknown`
 * phase (a deployment that shows `unknown` for a task the core has queued or running shows the cell
 * without the break, and a first look rate limited may miss the phase), so the gateway's profile.
 */
function limitsFor(defect: Defect, cell: Cell | undefined) {
  const own = checksOf(defect);
  const bytes = defect.breaks.some((rule) => CONTENT_BODY_RULES.has(rule));
  const unknownCell = cell?.state === 'unknown';
  const refused: Allow[] = [
    (_f, v) => v.departs.some((check) => own.has(check)),
    (f, v) => bytes && f.id === 'video-delivery' && !BYTES_AS_SENT.has(v.id),
    (_f, v) =>
      cell === undefined
        ? v.hides.length > 0 || NO_NATIVE_TASK.has(v.id)
        : v.hides.includes(cell.state) ||
          (NATIVE_ROUTES.has(cell.route) && NO_NATIVE_TASK.has(v.id)),
    (f, v) =>
      unknownCell &&
      ['unknown-state', 'rate-limiting'].includes(f.id) &&
      !['never', 'none'].includes(v.id),
  ];
  const allow: Allow = (f, v) => !refused.some((no) => no(f, v));
  return { allow, profiles: unknownCell ? (['observed'] as const) : undefined };
}

/** The second family as the deployment has it: a narrowed target never names an unbound one. */
const familyOf = (deployment: Deployment) =>
  deployment.target.family === undefined ? { family: undefined } : {};

/** The conforming deployment of `seed` a defect (in `cell`) is played on: what `reproduce.ts` replays. */
export const baseFor = (defect: Defect, cell: Cell | undefined, seed: number): Deployment =>
  conformingDeployment(seed, limitsFor(defect, cell));

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
  /** The run followed no task (its budget went to submissions the defect wrongly accepted). */
  readonly noTaskFollowed: boolean;
}

/**
 * Plays `defect` on conforming bases until one's run judges what it breaks (at most `BASE_TRIES`), and
 * returns the verdict on that base: killed (a failing check claims it, in `cell` when given) and the exit.
 */
export async function judgeOnConformingBase(defect: Defect, cell?: Cell): Promise<BaseVerdict> {
  const strict = strictRunFor(defect);
  let last: BaseVerdict | undefined;
  // The cheapest target that judges the cell on the documented mock (mutant-run.ts): a base on which
  // it judges less there is replaced by another, as one that does not observe the cell.
  const narrowed = cell === undefined ? {} : await targetJudging(cell);
  for (let attempt = 0; attempt < BASE_TRIES; attempt++) {
    const deployment = baseFor(defect, cell, baseSeed(defect.name, attempt));
    const target = { ...narrowed, ...familyOf(deployment), strict };
    const run = await runDeployment(deployment, { defects: [defect], target });
    const verdict = verdictOf(defect, run.report, strict, cell);
    last = {
      ...verdict,
      base: describeDeployment(deployment),
      seed: deployment.seed,
      reproduce: `${REPRODUCE} ${deployment.seed} --defect '${defect.name}'`,
      exit: run.exit.code,
      skipped: attempt,
      noTaskFollowed: run.report.noTaskFollowed !== undefined,
    };
    if (verdict.killed || judgedWhatItBreaks(run, defect, cell)) return last;
  }
  return last!;
}
