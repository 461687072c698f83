import type { Defect } from './defect.ts';
import { DOCUMENTED_QUERIES, rewriteTaskAnswer, without, wrapperData } from './support.ts';
import { upstreamTaskNumber } from './wrapper.ts';

/**
 * Habits of the deployed gateway (shared/service/reference-gateway-facts.md) that break a documented
 * rule. The mock's `observed` profile models none of them; these defects do, so the self-proof shows
 * what the contract suites report against such a gateway.
 */

/** The gateway's timeout sweep fails a task with this reason (`TASK_TIMEOUT_MINUTES`, default 1440). */
const TIMEOUT_REASON = '任务超时（1440分钟）';

export const GATEWAY_HABIT_DEFECTS: readonly Defect[] = [
  {
    name: 'gateway-raw-upstream-body',
    description:
      "the wrapper's data.data carries the raw upstream body, with the upstream's task number as its id",
    breaks: ['public-id-only'],
    after: rewriteTaskAnswer(['getVideoGeneration'], (body, { task }) => ({
      ...body,
      data: {
        ...wrapperData(body),
        data: { id: upstreamTaskNumber(task.id, task.createdAt), model: task.model },
      },
    })),
  },
  {
    name: 'gateway-result-url-fallback',
    description: "a failed task's data.result_url holds its failure reason instead of an address",
    breaks: ['wrapper-result-url-address'],
    after: rewriteTaskAnswer(['getVideoGeneration'], (body, { snap }) => {
      if (snap.status !== 'failed') return undefined;
      const data = wrapperData(body);
      return { ...body, data: { ...data, result_url: data['fail_reason'] } };
    }),
  },
  {
    name: 'gateway-timeout-sweep',
    description:
      'a failed task is failed by the timeout sweep: no error object on the OpenAI form, a timeout reason',
    breaks: ['presence-when-failed'],
    after: rewriteTaskAnswer(DOCUMENTED_QUERIES, (body, { snap, operationId }) => {
      if (snap.status !== 'failed') return undefined;
      if (operationId === 'getVideo') return without(body, 'error');
      return { ...body, data: { ...wrapperData(body), fail_reason: TIMEOUT_REASON } };
    }),
  },
  {
    name: 'gateway-drops-task-id',
    description: 'the OpenAI form of a status query carries no task_id (newer gateway versions)',
    breaks: ['presence-when-completed'],
    after: rewriteTaskAnswer(['getVideo'], (body) => without(body, 'task_id')),
  },
];
