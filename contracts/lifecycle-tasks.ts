import { LIFECYCLE } from '../src/generated/client-contract.ts';
import { operationsWith } from '../src/spec/route-roles.ts';
import { CHECKS } from './checks/definitions.ts';
import { followTask, type FollowedTask } from './checks/follow-task.ts';
import { routePath, type CellState } from './matrix/index.ts';
import type { LifecycleTask, RefusedTask, RunContext } from './run-context.ts';

export const PROMPT = 'videotask contract check: a red kite over a green hill';
const NATIVE = 'createPluginTask';
const REAL: readonly CellState[] = LIFECYCLE.states;

/** The tasks a lifecycle run creates, in the order the budget serves them. */
export function lifecycleTasks(ctx: RunContext): LifecycleTask[] {
  const { model, failing } = ctx.target;
  const tasks: LifecycleTask[] = [
    {
      name: 'via POST /v1/video/generations',
      route: 'createVideoGeneration',
      model,
      prompt: PROMPT,
      expectFailure: false,
    },
    {
      name: 'via POST /v1/videos',
      route: 'createVideo',
      model,
      prompt: PROMPT,
      expectFailure: false,
    },
  ];
  if (failing !== undefined)
    tasks.push({
      name: 'expected to fail (--failing-model/--failing-prompt)',
      route: 'createVideoGeneration',
      model: failing.model ?? model,
      prompt: failing.prompt ?? PROMPT,
      expectFailure: true,
    });
  if (ctx.native !== undefined)
    tasks.push({
      name: `on the native path of plugin ${ctx.native.plugin}`,
      route: 'createPluginTask',
      model: ctx.native.model,
      prompt: PROMPT,
      expectFailure: false,
    });
  // A failing prompt fails a family model too: the native path's `failed` column.
  if (ctx.native !== undefined && failing?.prompt !== undefined)
    tasks.push({
      name: `expected to fail, on the native path of plugin ${ctx.native.plugin}`,
      route: 'createPluginTask',
      model: ctx.native.model,
      prompt: failing.prompt,
      expectFailure: true,
    });
  return tasks;
}

/**
 * Creates and follows the lifecycle tasks in parallel, then records why task states went unobserved:
 * the budget, no task failing (and whether the operator named a failing model or prompt), or a state no
 * poll happened to show. Returns why no task could be followed although the run submitted some: every
 * submission refused, rate limited or unconfirmed, or every task it created left unfollowed because of
 * the deployment's answers to its queries (rate limited past every wait, 5xx past the retries). The
 * lifecycle went unchecked, so the run is not green whatever the refusal (issue 24 item 4); undefined
 * when a task was followed or none was sent.
 */
export async function runLifecycle(ctx: RunContext): Promise<string | undefined> {
  const followed = await Promise.all(lifecycleTasks(ctx).map((task) => followTask(ctx, task)));
  judgeRefusedTasks(ctx, followed);
  const unfollowed = noTaskFollowed(ctx, followed);
  if (unfollowed !== undefined) ctx.coverage.because(unfollowed, { states: REAL });
  const failed = followed.some((f) => f.states.has('failed'));
  if (!failed) {
    for (const check of [CHECKS.presenceFailed, CHECKS.wrapperFailure])
      ctx.verdicts.skip(check, 'no task failed during the run');
    ctx.coverage.because(whyNoFailure(ctx, followed), { states: ['failed'] });
  }
  const nativeFailed = followed.some((f) => f.task.route === NATIVE && f.states.has('failed'));
  if (failed && !nativeFailed)
    ctx.coverage.because(
      whyNoFailure(
        ctx,
        followed.filter((f) => f.task.route === NATIVE),
      ),
      {
        routes: ['getPluginTask'],
        states: ['failed'],
      },
    );
  const native = followed.find((f) => f.task.route === NATIVE && !f.task.expectFailure);
  if (native?.outcome === 'budget')
    ctx.coverage.because('budget: the native-path task did not fit', {
      routes: operationsWith({ family: 'second' }),
    });
  const noTask = followed.every((f) => f.outcome !== 'created');
  if (noTask) ctx.coverage.because(noTaskReason(ctx, followed), { states: REAL });
  const uncovered = followed.filter((f) => f.outcome === 'budget').map((f) => f.task.name);
  if (uncovered.length > 0) {
    const enough = ctx.target.budget + uncovered.length;
    ctx.notes.push(
      `budget ${ctx.target.budget} did not cover: ${uncovered.join('; ')} (--budget ${enough} would)`,
    );
  }
  if (unfollowed !== undefined) return unfollowed;
  const sent = ctx.recorder.submissions.size > 0;
  return noTask && sent && ctx.limits.stopped === undefined ? unchecked(ctx, followed) : undefined;
}

/** Flags of the run's inputs, by the task model they name (an input error names what to fix). */
function modelFlag(ctx: RunContext, task: LifecycleTask): string {
  const { target } = ctx;
  if (task.route === 'createPluginTask') return '--family-model';
  if (task.expectFailure && target.failing?.model !== undefined) return '--failing-model';
  return '--model';
}

const DOCUMENTED: readonly LifecycleTask['route'][] = operationsWith({
  kind: 'submit',
  family: 'any',
});
const sameSide = (a: LifecycleTask, b: LifecycleTask) =>
  DOCUMENTED.includes(a.route) === DOCUMENTED.includes(b.route);

/**
 * The valid lifecycle submissions refused with a 4xx, judged once all have their answers. §7 reads a
 * 4xx on submission as the client's to fix (authentication, permission, model or parameters): where no
 * path took the same model from this key, the run's input is what is wrong (a key without quota or
 * permission, a model the key may not use) and the run says so as an input error, never as a failure of
 * the document (issue 31 item 3). Where another path of the same kind took the same model, the key may
 * use it, and the path that refused it breaks §4.1 (`submission.both-paths`).
 */
function judgeRefusedTasks(ctx: RunContext, followed: readonly FollowedTask[]): void {
  const taken = followed.filter((f) => f.outcome === 'created').map((f) => f.task);
  const byModel = new Map<string, RefusedTask[]>();
  for (const refused of ctx.refusedTasks) {
    const { task, path, status, evidence } = refused;
    const sameModel = taken.filter((t) => t.model === task.model && sameSide(t, task));
    const other = sameModel.find((t) => t.prompt === task.prompt);
    if (other !== undefined)
      ctx.verdicts.violation(
        CHECKS.submissionPaths,
        `${path} refused a valid task (${task.name}) with HTTP ${status}, while ` +
          `${routePath(other.route, '', ctx.native?.plugin)} accepted the same task from this key`,
        evidence,
      );
    else if (sameModel.length > 0)
      ctx.notes.push(
        `${task.name}: POST ${path} refused it with HTTP ${status} while the same model was ` +
          'accepted with another prompt: §7 reads its prompt as refused (a parameter)',
      );
    else byModel.set(task.model, [...(byModel.get(task.model) ?? []), refused]);
  }
  for (const [model, refusals] of byModel) {
    const flag = modelFlag(ctx, refusals[0]!.task);
    const answers = sameAnswers(refusals);
    ctx.inputErrors.push({
      message:
        `the deployment refused every valid task of ${flag} ${model} from the key ` +
        `${ctx.recorder.maskedKey() ?? ''} (${answers.join('; ')}). §7 reads a refused submission ` +
        "(4xx) as the client's to fix: check the key's quota and its permission for the model " +
        `(§5), or ${flag}, and run again.`,
      stopsSubmissions: false,
    });
    ctx.verdicts.skip(
      CHECKS.submissionPaths,
      `every valid task of ${model} was refused (an input error)`,
    );
  }
}

/** `POST /a and POST /b answered HTTP 403: {…}`: the refusals, those that answered alike said once. */
function sameAnswers(refusals: readonly RefusedTask[]): string[] {
  const byAnswer = new Map<string, string[]>();
  for (const r of refusals) {
    const answer = `HTTP ${r.status}${r.evidence.excerpt ? `: ${r.evidence.excerpt}` : ''}`;
    byAnswer.set(answer, [...(byAnswer.get(answer) ?? []), `POST ${r.path}`]);
  }
  return [...byAnswer].map(([answer, paths]) => `${paths.join(' and ')} answered ${answer}`);
}

/** Why no lifecycle task could be followed, and what to do about it. */
function unchecked(ctx: RunContext, followed: readonly FollowedTask[]): string {
  const count = (outcome: FollowedTask['outcome']) =>
    followed.filter((f) => f.outcome === outcome).length;
  const why = [
    [
      count('unconfirmed'),
      'answered neither a task nor a refusal (listed as unconfirmed, with their request IDs: look ' +
        "them up in the service's logs; a longer --request-timeout may help a slow service)",
    ],
    [
      count('rate-limited'),
      `rate limited (429) past every retry (${ctx.retries.submissions} in all, each after its ` +
        'Retry-After or a growing backoff: try again later, when the rate limit allows)',
    ],
    [count('refused'), "refused (4xx: check --model and the key's permissions and quota)"],
    [count('budget'), `left out: the budget went to ${ctx.budget.spent} earlier submission(s)`],
  ] as const;
  const parts = why.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return `no submission was confirmed: ${parts.join('; ')}, so no task could be followed`;
}

/**
 * Why none of the tasks the run created reached its end, when the deployment's answers to their
 * queries are why (rate limited past every wait, 5xx past the retries, the owner refused); undefined
 * when one did, none was created, or the run stopped (which says why itself).
 */
function noTaskFollowed(ctx: RunContext, followed: readonly FollowedTask[]): string | undefined {
  const created = followed.filter((f) => f.outcome === 'created');
  const unfollowed = created.flatMap((f) => (f.unfollowed === undefined ? [] : [f.unfollowed]));
  if (ctx.limits.stopped !== undefined || unfollowed.length === 0) return undefined;
  if (created.some((f) => f.finalStatus !== undefined)) return undefined;
  const whys = [...new Set(unfollowed)].map(
    (why) => `${unfollowed.filter((u) => u === why).length} because ${why}`,
  );
  return (
    `no task could be followed to its end: of the ${created.length} task(s) created, ` +
    `${whys.join('; ')} (see the notes: run again when the key's rate limit or the service ` +
    'allows, or with a longer --poll-timeout)'
  );
}

/** Why no task could be followed: the run stopped, answers left creation unconfirmed, the budget, refusals. */
function noTaskReason(ctx: RunContext, followed: readonly FollowedTask[]): string {
  const stopped = ctx.limits.stopped;
  if (stopped !== undefined) return stopped;
  if (followed.some((f) => f.outcome === 'unconfirmed'))
    return 'no submission was confirmed (see the unconfirmed submissions)';
  if (followed.some((f) => f.outcome === 'rate-limited')) return 'rate limited (429) at submission';
  return followed.some((f) => f.outcome === 'budget') ? 'budget' : 'every submission was refused';
}

function whyNoFailure(ctx: RunContext, followed: readonly FollowedTask[]): string {
  const failing = followed.find((f) => f.task.expectFailure);
  if (ctx.target.failing === undefined) return 'no task failed (no failing model or prompt given)';
  if (failing === undefined && ctx.target.failing.prompt === undefined)
    return 'no failing prompt given (a failing model fails the documented paths only)';
  if (failing === undefined || failing.outcome === 'budget')
    return 'budget: the task expected to fail did not fit';
  if (failing.outcome === 'refused' || failing.outcome === 'rate-limited') {
    const how = failing.outcome === 'refused' ? 'refused' : 'rate limited (429)';
    return `the task expected to fail was ${how} at submission`;
  }
  if (failing.outcome === 'unconfirmed' || failing.outcome === 'stopped')
    return `the task expected to fail was not confirmed at submission`;
  ctx.notes.push(
    `the task expected to fail ended ${failing.finalStatus ?? 'without a final state'}`,
  );
  return `the task expected to fail ended ${failing.finalStatus ?? 'without a final state'}`;
}
