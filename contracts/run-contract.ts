import { serviceContract } from '../src/spec/index.ts';
import { CHECKS } from './checks/definitions.ts';
import { followTask, probeSubmissionRefusals } from './checks/lifecycle.ts';
import { probeAuthentication, probeCatalog, probeUnknownTask } from './checks/probes.ts';
import { HttpRecorder } from './http-recorder.ts';
import type { ContractReport } from './report.ts';
import { TaskBudget, type RunContext } from './run-context.ts';
import type { ContractTarget } from './target.ts';
import { Verdicts, type Outcome } from './verdicts.ts';

/** The target cannot be checked at all (unreachable, or the key is refused): the CLI exits 2. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

export interface RunOptions {
  readonly fetch?: typeof fetch | undefined;
  /** Live progress lines (tasks submitted, polled, downloaded). */
  readonly onProgress?: (line: string) => void;
}

/**
 * Checks a deployment against the documented behaviour. Never prints; returns the report.
 *
 * @example
 * const report = await runContract({ baseUrl, apiKey, model: 'video-pro-v1', tier: 'free', budget: 0, strict: false, poll: DOCUMENTED_POLL, requestTimeoutMs: 30_000 });
 * if (!report.ok) process.exitCode = 1;
 */
export async function runContract(
  target: ContractTarget,
  options: RunOptions = {},
): Promise<ContractReport> {
  const startedAt = new Date();
  const started = performance.now();
  const recorder = new HttpRecorder({
    baseUrl: target.baseUrl,
    keys: { primary: target.apiKey, other: target.otherApiKey },
    requestTimeoutMs: target.requestTimeoutMs,
    fetch: options.fetch,
  });
  const verdicts = new Verdicts(serviceContract().lifecycle, target.strict, Object.values(CHECKS));
  const ctx: RunContext = {
    target,
    recorder,
    verdicts,
    budget: new TaskBudget(target.tier === 'free' ? 0 : target.budget),
    notes: [],
    progress: options.onProgress ?? (() => {}),
  };

  await preflight(recorder, target);
  await probeCatalog(ctx);
  await probeAuthentication(ctx);
  await probeUnknownTask(ctx);
  if (target.tier === 'lifecycle') {
    await probeSubmissionRefusals(ctx);
    await Promise.all((['generations', 'videos'] as const).map((path) => followTask(ctx, path)));
  } else {
    const reason = '--tier free creates no task';
    for (const check of [
      CHECKS.emptyPrompt,
      CHECKS.submissionPaths,
      CHECKS.contentBeforeCompletion,
      CHECKS.contentBinary,
      CHECKS.ownerStatus,
      CHECKS.ownerContent,
      CHECKS.legalTransition,
      CHECKS.presenceCompleted,
      CHECKS.formsAgree,
    ])
      verdicts.skip(check, reason);
  }
  const resubmitted = [...recorder.submissions.values()].some((n) => n > 1);
  verdicts.expect(
    CHECKS.noResubmission,
    !resubmitted && ctx.budget.created <= ctx.budget.limit,
    `the suite sent ${recorder.submissions.size} submissions and created ${ctx.budget.created} tasks (budget ${ctx.budget.limit})`,
  );

  const results = verdicts.results();
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const r of results) counts[r.outcome]++;
  return {
    target: {
      baseUrl: target.baseUrl,
      key: recorder.maskedKey(),
      model: target.model,
      tier: target.tier,
      budget: target.budget,
      strict: target.strict,
    },
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - started,
    tasksCreated: ctx.budget.created,
    requests: recorder.exchanges.length,
    counts,
    ok: counts.fail === 0,
    results,
    notes: ctx.notes,
  };
}

async function preflight(recorder: HttpRecorder, target: ContractTarget): Promise<void> {
  const probe = await recorder.send('preflight', 'GET', '/v1/models');
  if (probe.networkError !== undefined)
    throw new TargetError(
      `cannot reach ${target.baseUrl}: ${probe.networkError}. Check --base-url and that the service is up.`,
    );
  if (probe.status === 401)
    throw new TargetError(
      `${target.baseUrl} refused the API key ${recorder.maskedKey()} (HTTP 401). Check --api-key / VIDEOTASK_API_KEY.`,
    );
}
