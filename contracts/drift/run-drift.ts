import type { LearnedProfile } from '../../src/profile/index.ts';
import { runLearn, type LearnOptions } from '../learn/run-learn.ts';
import type { ContractReport } from '../report.ts';
import type { RunOptions } from '../run-contract.ts';
import { targetName, type ContractTarget } from '../target.ts';
import { compareProfiles, type CompareOptions } from './compare-profiles.ts';
import type { Aspect, Difference } from './difference.ts';

/** One side of a drift run: where it pointed and what its run did (never its key). */
export interface DriftSide {
  readonly baseUrl: string;
  /** `sk-…abcd`. */
  readonly key: string;
  readonly requests: number;
  readonly tasksCreated: number;
  readonly unconfirmed: number;
  readonly stopped?: string | undefined;
  /** The contract run's coverage line (`coverage: 66/104 cells observed (…)`). */
  readonly coverage: string;
  /** The contract run's verdict counts on this side. */
  readonly counts: ContractReport['counts'];
}

export interface DriftReport {
  readonly a: DriftSide;
  readonly b: DriftSide;
  readonly tier: string;
  readonly startedAt: string;
  readonly durationMs: number;
  /** No difference, and both sides were checked to the end. */
  readonly ok: boolean;
  readonly differences: readonly Difference[];
  readonly counts: Readonly<Partial<Record<Aspect, number>>>;
  readonly notes: readonly string[];
}

export interface DriftRun {
  readonly report: DriftReport;
  /** What each side was learned as (`--learn-dir` writes them). */
  readonly profiles: { readonly a: LearnedProfile; readonly b: LearnedProfile };
  /** Each side's contract report (its input errors and what it left unjudged: the exit status). */
  readonly reports: { readonly a: ContractReport; readonly b: ContractReport };
}

/** How each side runs, and the profile B replays when it is the mock serving one. */
export interface DriftOptions extends CompareOptions {
  readonly a?: RunOptions;
  readonly b?: RunOptions;
}

/**
 * Runs one request sequence against two deployments, side by side — the contract suite's observation
 * with its budget and tiers (`free` asks read-only routes only), plus the learning probes — and lists
 * every difference in how they answered, step by step and cell by cell (decisions/018). Never prints.
 *
 * @example
 * const { report } = await runDrift(staging, mock);
 * if (!report.ok) process.exitCode = 1;
 */
export async function runDrift(
  a: ContractTarget,
  b: ContractTarget,
  options: DriftOptions = {},
): Promise<DriftRun> {
  const startedAt = new Date();
  const started = performance.now();
  const learn = (target: ContractTarget, run: RunOptions | undefined) =>
    runLearn(target, {
      ...run,
      tool: 'drift',
      name: targetName(target.baseUrl),
    } satisfies LearnOptions);
  const [left, right] = await Promise.all([learn(a, options.a), learn(b, options.b)]);
  const compared = compareProfiles(left.profile, right.profile, options);
  const differences = [...compared.differences, ...verdictDifferences(left.report, right.report)];
  const counts: Partial<Record<Aspect, number>> = {};
  for (const d of differences) counts[d.aspect] = (counts[d.aspect] ?? 0) + 1;
  const stopped = left.report.stopped ?? right.report.stopped;
  const notes = [
    ...left.notes.map((n) => `A: ${n}`),
    ...right.notes.map((n) => `B: ${n}`),
    ...catalogNote(left.profile, right.profile),
    ...compared.notes,
  ];
  return {
    report: {
      a: sideOf(left.report),
      b: sideOf(right.report),
      tier: a.tier,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - started,
      ok: differences.length === 0 && stopped === undefined,
      differences,
      counts,
      notes,
    },
    profiles: { a: left.profile, b: right.profile },
    reports: { a: left.report, b: right.report },
  };
}

function sideOf(report: ContractReport): DriftSide {
  return {
    baseUrl: report.target.baseUrl,
    key: report.target.key,
    requests: report.requests,
    tasksCreated: report.tasksCreated,
    unconfirmed: report.unconfirmed.length,
    ...(report.stopped === undefined ? {} : { stopped: report.stopped }),
    coverage: report.coverage.line,
    counts: report.counts,
  };
}

/** A check of the contract suite that fails on one side only: the same sequence, judged otherwise. */
function verdictDifferences(a: ContractReport, b: ContractReport): Difference[] {
  const outcome = (report: ContractReport, id: string) =>
    report.results.find((r) => r.id === id)?.outcome ?? 'skip';
  const ids = [...new Set([...a.results, ...b.results].map((r) => r.id))];
  return ids
    .filter((id) => (outcome(a, id) === 'fail') !== (outcome(b, id) === 'fail'))
    .map((id) => {
      const failed = [...a.results, ...b.results].find((r) => r.id === id && r.outcome === 'fail');
      const cell = failed?.violations[0]?.evidence?.cell;
      return {
        aspect: 'verdict',
        cell: cell === undefined ? 'contract' : `${cell.route} ${cell.state} ${cell.caller}`,
        situation: '',
        where: `${id} (${failed?.basisText ?? ''})`,
        a: outcome(a, id),
        b: outcome(b, id),
        steps: [],
      } satisfies Difference;
    });
}

/** The model IDs each catalog lists: data, not shape, so a note rather than a difference. */
function catalogNote(a: LearnedProfile, b: LearnedProfile): string[] {
  const onlyA = a.models.filter((m) => !b.models.includes(m));
  const onlyB = b.models.filter((m) => !a.models.includes(m));
  if (onlyA.length === 0 && onlyB.length === 0) return [];
  return [
    `the catalogs list other models: ${onlyA.length > 0 ? `A only ${onlyA.join(', ')}` : ''}` +
      `${onlyA.length > 0 && onlyB.length > 0 ? '; ' : ''}${onlyB.length > 0 ? `B only ${onlyB.join(', ')}` : ''}`,
  ];
}
