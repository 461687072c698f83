import { LIFECYCLE } from '../src/generated/client-contract.ts';
import type { Tool } from '../src/tool-mark.ts';
import { realSleep } from '../src/client/sleep.ts';
import { serviceContract, type ServiceContract } from '../src/spec/index.ts';
import { CHECKS } from './checks/definitions.ts';
import { probeCatalog, probeMissingTask } from './checks/probes.ts';
import { routeRequest } from './matrix/index.ts';
import { probeSubmissionRefusals } from './checks/submission-probes.ts';
import { computeCoverage } from './coverage.ts';
import { CoverageNotes } from './coverage-notes.ts';
import { harOf, type Har } from './har.ts';
import { HttpRecorder, type Exchange, type SendInit } from './http-recorder.ts';
import { runLifecycle } from './lifecycle-tasks.ts';
import type { ContractReport } from './report.ts';
import { TaskBudget, type RunClock, type RunContext } from './run-context.ts';
import { RUN_DEADLINE_MARGIN_MS, RunLimits } from './run-limits.ts';
import { contractFindings, exitStatusOf } from './exit-status.ts';
import { isJsonType, maybeTheService, notTheService } from './service-present.ts';
import { REPORT_SCHEMA_VERSION, TOOL } from './tool.ts';
import { plannedTasks, targetUsageProblem, type ContractTarget } from './target.ts';
import { Verdicts, type Outcome } from './verdicts.ts';

/** The target cannot be checked at all (unreachable, or the key is refused): the CLI exits 2. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

export interface RunOptions {
  /** The service contract the run judges by (its validators and `x-lifecycle`); default the built-in spec's. */
  readonly spec?: ServiceContract | undefined;
  readonly fetch?: typeof fetch | undefined;
  /** Live progress lines: one per task submitted, per state a task enters, per download. */
  readonly onProgress?: (line: string) => void;
  /** Gets the run's traffic as HAR 1.2 when it is done, keys masked (`--har FILE`). */
  readonly onTraffic?: (har: Har) => void;
  /** How the run measures and waits time. Default: real time. A test passes a virtual clock. */
  readonly clock?: RunClock | undefined;
  /** Told of every exchange, with what was sent and when (run clock): a learning run (contracts/learn). */
  readonly onExchange?: ((exchange: Exchange, sent: SendInit, atMs: number) => void) | undefined;
  /** The tool the run's requests are marked with (`X-Videotask-Tool`, decisions/045). Default `contract`. */
  readonly tool?: Tool | undefined;
}

const REAL_TIME: RunClock = { now: () => performance.now(), sleep: realSleep };

/**
 * Checks a deployment against the documented behaviour. Never prints; returns the report, whose
 * coverage says which cells of the observation space the run observed and why not the others.
 *
 * @example
 * const report = await runContract({ baseUrl, apiKey, model: 'video-pro-v1', tier: 'free', budget:
 * 0, strict: false, poll: DOCUMENTED_POLL, requestTimeoutMs: 30_000 });
 * if (!report.ok) process.exitCode = 1;
 */
export async function runContract(
  target: ContractTarget,
  options: RunOptions = {},
): Promise<ContractReport> {
  const usage = targetUsageProblem(target);
  if (usage !== undefined) throw new TargetError(usage);
  const startedAt = new Date();
  const started = performance.now();
  const clock = options.clock ?? REAL_TIME;
  const limits = new RunLimits(clock, target.poll.timeoutMs + RUN_DEADLINE_MARGIN_MS);
  const recorder = new HttpRecorder({
    baseUrl: target.baseUrl,
    keys: { primary: target.apiKey, other: target.otherApiKey },
    requestTimeoutMs: target.requestTimeoutMs,
    fetch: options.fetch,
    tool: options.tool ?? 'contract',
    limits,
    onExchange:
      options.onExchange === undefined
        ? undefined
        : (exchange, sent) => options.onExchange!(exchange, sent, clock.now()),
  });
  const verdicts = new Verdicts(
    options.spec ?? serviceContract(),
    target.strict,
    Object.values(CHECKS),
  );
  const ctx: RunContext = {
    target,
    native: undefined,
    forbiddenModel: target.forbiddenModel,
    otherCaller: target.otherApiKey !== undefined,
    inputErrors: [],
    refusedTasks: [],
    retries: { submissions: 0, queries: 0 },
    rateLimitPersisted: false,
    recorder,
    limits,
    verdicts,
    budget: new TaskBudget(target.tier === 'free' ? 0 : target.budget),
    notes: [],
    coverage: new CoverageNotes(),
    clock,
    progress: options.onProgress ?? (() => {}),
  };
  if (target.otherApiKey === undefined) {
    ctx.coverage.because('no second key (--other-api-key)', { callers: ['other'] });
    for (const check of [CHECKS.ownerStatus, CHECKS.ownerContent])
      verdicts.skip(check, "needs a second user's key (--other-api-key)");
  }

  try {
    const noTaskFollowed = await checkAll(ctx);
    return reportOf(ctx, { startedAt, started, noTaskFollowed });
  } finally {
    // The traffic of a run that ended early too (a refused key, an unreachable target).
    if (options.onTraffic !== undefined) options.onTraffic(trafficOf(recorder));
  }
}

/**
 * Everything a run asks and judges, in order: the free probes, then the tasks the tier allows. Returns
 * why no task could be followed, when the run submitted and none was.
 */
async function checkAll(ctx: RunContext): Promise<string | undefined> {
  const { recorder, target, verdicts, limits } = ctx;
  await preflight(recorder, target);
  await probeCatalog(ctx);
  await probeMissingTask(ctx);
  let noTaskFollowed: string | undefined;
  const blocked = ctx.inputErrors.some((e) => e.stopsSubmissions);
  if (target.tier === 'lifecycle' && !blocked) {
    await probeSubmissionRefusals(ctx);
    noTaskFollowed = await runLifecycle(ctx);
  } else skipLifecycle(ctx, blocked ? UNLISTED : FREE);
  verdicts.skip(CHECKS.rateLimitRetryAfter, 'no 429 was seen');
  const resubmitted = [...recorder.submissions.values()].some((n) => n > 1);
  const { budget } = ctx;
  verdicts.expect(
    CHECKS.noResubmission,
    !resubmitted && budget.spent <= budget.limit,
    `the suite sent ${recorder.submissions.size} submissions: ` +
      `${budget.created} created a task, ${budget.unconfirmed.length} ` +
      `unconfirmed (budget ${budget.limit})`,
  );
  if (limits.stopped !== undefined) {
    ctx.coverage.because(limits.stopped, {});
    for (const check of Object.values(CHECKS)) verdicts.skip(check, limits.stopped);
  }
  return noTaskFollowed;
}

/** The run's traffic as HAR 1.2, every key masked. */
function trafficOf(recorder: HttpRecorder): Har {
  const har = harOf(recorder.exchanges, {
    baseUrl: recorder.options.baseUrl,
    authorization: (as) => {
      const masked = recorder.maskedKey(as);
      return masked === undefined ? undefined : `Bearer ${masked}`;
    },
  });
  return recorder.redactor.redactDeep(har);
}

/** The report: every text of it (server excerpts, messages, notes) through the run's one redaction. */
function reportOf(
  ctx: RunContext,
  run: {
    readonly startedAt: Date;
    readonly started: number;
    readonly noTaskFollowed: string | undefined;
  },
): ContractReport {
  const { target, verdicts, recorder, limits, budget } = ctx;
  const results = verdicts.results();
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const r of results) counts[r.outcome]++;
  const report: Omit<ContractReport, 'exit'> = {
    tool: TOOL,
    schemaVersion: REPORT_SCHEMA_VERSION,
    target: {
      baseUrl: target.baseUrl,
      key: recorder.maskedKey() ?? '',
      model: target.model,
      tier: target.tier,
      budget: target.budget,
      strict: target.strict,
      ...(target.failing === undefined ? {} : { failing: target.failing }),
      ...(target.family === undefined ? {} : { family: target.family }),
      ...(target.forbiddenModel === undefined ? {} : { forbiddenModel: target.forbiddenModel }),
    },
    startedAt: run.startedAt.toISOString(),
    durationMs: performance.now() - run.started,
    tasksCreated: budget.created,
    unconfirmed: budget.unconfirmed,
    ...(limits.stopped === undefined ? {} : { stopped: limits.stopped }),
    ...(run.noTaskFollowed === undefined ? {} : { noTaskFollowed: run.noTaskFollowed }),
    requests: recorder.exchanges.length,
    counts,
    ok: counts.fail === 0,
    results,
    coverage: computeCoverage(verdicts, ctx.coverage),
    inputErrors: ctx.inputErrors.map((e) => e.message),
    retries: { ...ctx.retries },
    notes: ctx.notes,
  };
  return recorder.redactor.redactDeep<ContractReport>({
    ...report,
    exit: exitStatusOf(contractFindings(report)),
  });
}

const FREE = '--tier free creates no task';
const UNLISTED = 'nothing was submitted: a model the catalog does not list (an input error)';

function skipLifecycle(ctx: RunContext, why: string): void {
  ctx.coverage.because(why, {
    states: [...LIFECYCLE.states, 'n/a'],
  });
  for (const check of [
    CHECKS.emptyPrompt,
    CHECKS.requiredFields,
    CHECKS.modelPermissions,
    CHECKS.fileUpload,
    CHECKS.submissionPaths,
    CHECKS.submissionStatus200,
    CHECKS.contentBeforeCompletion,
    CHECKS.contentBinary,
    CHECKS.ownerStatus,
    CHECKS.ownerContent,
    CHECKS.legalTransition,
    CHECKS.presenceCompleted,
    CHECKS.formsAgree,
  ])
    ctx.verdicts.skip(check, why);
  if (why === FREE && plannedTasks(ctx.target) > 2)
    ctx.notes.push(`${FREE}: the failing and native-path tasks were not submitted`);
}

async function preflight(recorder: HttpRecorder, target: ContractTarget): Promise<void> {
  const catalog = routeRequest('listModels');
  const probe = await recorder.send('preflight', ...catalog);
  if (probe.networkError !== undefined)
    throw new TargetError(
      `cannot reach ${target.baseUrl}: ${probe.networkError}. Check --base-url and that the service is up.`,
    );
  if (probe.status === 401)
    throw new TargetError(
      `${target.baseUrl} refused the API key ${recorder.maskedKey()} (HTTP 401). ` +
        'Check --api-key / VIDEOTASK_API_KEY.',
    );
  const answer = (e: Exchange) => ({
    status: e.status,
    json: e.json !== undefined || isJsonType(e.contentType),
  });
  const withKey = answer(probe);
  if (maybeTheService(withKey)) return;
  const keyless = await recorder.send('preflight, no key', ...catalog, { as: 'none' });
  const withoutKey = answer(keyless);
  const elsewhere = notTheService(target.baseUrl, { withKey, withoutKey });
  if (elsewhere !== undefined) throw new TargetError(`${elsewhere} Nothing was submitted.`);
}
