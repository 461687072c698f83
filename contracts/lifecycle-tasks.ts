import { CHECKS } from './checks/definitions.ts';
import { followTask, type FollowedTask } from './checks/follow-task.ts';
import type { LifecycleTask } from './checks/submission.ts';
import type { CellState } from './matrix/index.ts';
import type { RunContext } from './run-context.ts';

export const PROMPT = 'videotask contract check: a red kite over a green hill';
const NATIVE = 'createPluginTask';
const REAL: readonly CellState[] = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];

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
 * poll happened to show.
 */
export async function runLifecycle(ctx: RunContext): Promise<void> {
  const followed = await Promise.all(lifecycleTasks(ctx).map((task) => followTask(ctx, task)));
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
      routes: ['getPluginTask', 'createPluginTask'],
    });
  if (followed.every((f) => f.outcome !== 'created'))
    ctx.coverage.because(noTaskReason(ctx, followed), { states: REAL });
  const uncovered = followed.filter((f) => f.outcome === 'budget').map((f) => f.task.name);
  if (uncovered.length > 0) {
    const enough = ctx.target.budget + uncovered.length;
    ctx.notes.push(
      `budget ${ctx.target.budget} did not cover: ${uncovered.join('; ')} (--budget ${enough} would)`,
    );
  }
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
