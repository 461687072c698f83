import { renderVideoTask, renderWrapper } from '../core/render/render.ts';
import type { TaskSnapshot } from '../core/plan/snapshot.ts';
import type { Defect } from './defect.ts';
import { DOCUMENTED_QUERIES, rewriteTaskAnswer, wrapperData } from './support.ts';

/** Defects in how a task's state and progress move over time (§2.2, §3), told the same way by both forms. */

/** Both query forms, with the progress replaced (OpenAI integer, wrapper `<n>%`). */
function showProgress(
  when: TaskSnapshot['status'],
  progress: (snap: TaskSnapshot) => number,
): NonNullable<Defect['after']> {
  return rewriteTaskAnswer(DOCUMENTED_QUERIES, (body, { snap, operationId }) => {
    if (snap.status !== when) return undefined;
    const value = progress(snap);
    return operationId === 'getVideo'
      ? { ...body, progress: value }
      : { ...body, data: { ...wrapperData(body), progress: `${value}%` } };
  });
}

/** How long after completing a task starts reporting `in_progress` again (status-regression). */
export const REGRESSION_AFTER_MS = 30_000;

export const LIFECYCLE_DEFECTS: readonly Defect[] = [
  {
    name: 'status-regression',
    description:
      `a completed task reports in_progress again (both forms) from ` +
      `${REGRESSION_AFTER_MS / 1000} s after completing`,
    breaks: ['terminal-stays-terminal', 'legal-transition'],
    after: rewriteTaskAnswer(
      DOCUMENTED_QUERIES,
      (_body, { task, snap, operationId }, { state }) => {
        if (
          snap.status !== 'completed' ||
          state.clock.now() < snap.finishedAt! + REGRESSION_AFTER_MS
        )
          return undefined;
        // The task row is overwritten with a stale upstream state; progress stays at 100 (it never goes down).
        const stale: TaskSnapshot = {
          status: 'in_progress',
          progress: 100,
          updatedAt: snap.finishedAt! + REGRESSION_AFTER_MS,
        };
        if (operationId === 'getVideo')
          return { ...renderVideoTask(task, stale, undefined, state.profile), progress: 100 };
        const wrapper = renderWrapper(task, stale, undefined, state.wrapperStatuses, state.profile);
        return { ...wrapper, data: { ...wrapper.data, progress: '100%' } };
      },
    ),
  },
  {
    name: 'progress-decrease',
    description:
      'while in_progress, progress counts down (99 minus the real progress) on later polls',
    breaks: ['progress-monotonic'],
    after: showProgress('in_progress', (snap) => 99 - snap.progress),
  },
  {
    name: 'progress-out-of-range',
    description: 'while in_progress, progress is 150 (both forms)',
    breaks: ['progress-range', 'progress-monotonic'],
    after: showProgress('in_progress', () => 150),
  },
  {
    name: 'progress-incomplete',
    description: 'a completed task reports progress 99 instead of 100 (both forms)',
    breaks: ['progress-complete'],
    after: showProgress('completed', () => 99),
  },
  {
    name: 'undocumented-status',
    description: 'the OpenAI form says "processing" instead of in_progress while the task runs',
    breaks: ['status-documented', 'legal-transition', 'forms-agree'],
    checks: ['task.shape'],
    statements: ['4-query-openai', '4.2-response', '1-two-query-forms'],
    after: rewriteTaskAnswer(['getVideo'], (body, { snap }) =>
      snap.status === 'in_progress' ? { ...body, status: 'processing' } : undefined,
    ),
  },
];
