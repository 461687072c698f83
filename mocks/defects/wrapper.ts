import { renderWrapper } from '../core/render/render.ts';
import { sha256, toHex } from '../core/signing/sha256.ts';
import type { Defect } from './defect.ts';
import { rewriteTaskAnswer, wrapperData } from './support.ts';

/** Defects in the generic task wrapper (§2.3) of `GET /v1/video/generations/{task_id}`. */

const wrapper = (rewrite: Parameters<typeof rewriteTaskAnswer>[1]) =>
  rewriteTaskAnswer(['getVideoGeneration'], rewrite);

/** The upstream's task number for a task, as an upstream would name it (`cgt-<date>-<hex>`). */
export function upstreamTaskNumber(taskId: string, createdAt: number): string {
  const day = new Date(createdAt).toISOString().slice(0, 10).replace(/-/g, '');
  return `cgt-${day}-${toHex(sha256(new TextEncoder().encode(taskId))).slice(0, 12)}`;
}

export const WRAPPER_DEFECTS: readonly Defect[] = [
  {
    name: 'wrapper-disagrees',
    description:
      'the wrapper still says IN_PROGRESS at 99% (no result_url) while the OpenAI form says completed',
    breaks: ['forms-agree'],
    after: wrapper((_body, { task, snap }, { state }) => {
      if (snap.status !== 'completed') return undefined;
      return {
        ...renderWrapper(
          task,
          { status: 'in_progress', progress: 99, updatedAt: snap.finishedAt! },
          undefined,
          state.wrapperStatuses,
          state.profile,
        ),
      };
    }),
  },
  {
    name: 'wrapper-progress-format',
    description: 'the wrapper\'s `data.progress` is a bare number ("50") without the % sign',
    breaks: ['wrapper-progress-format'],
    checks: ['wrapper.shape'],
    statements: ['4-query-wrapper', '4.3-response', '1-two-query-forms'],
    after: wrapper((body) => {
      const data = wrapperData(body);
      return { ...body, data: { ...data, progress: String(data['progress']).replace(/%$/, '') } };
    }),
  },
  {
    name: 'wrapper-failure-status',
    description: 'a failed task shows in the wrapper as status "ERROR" with an empty fail_reason',
    breaks: ['wrapper-failure-status', 'forms-agree'],
    after: wrapper((body, { snap }) =>
      snap.status === 'failed'
        ? { ...body, data: { ...wrapperData(body), status: 'ERROR', fail_reason: '' } }
        : undefined,
    ),
  },
  {
    name: 'wrapper-platform-number',
    description:
      "the wrapper's `data.platform` is the channel type as a JSON number (54), not a string",
    breaks: [],
    checks: ['wrapper.shape'],
    statements: ['2.3-data-platform', '4-query-wrapper', '4.3-response'],
    after: wrapper((body) => {
      const data = wrapperData(body);
      return { ...body, data: { ...data, platform: Number(data['platform']) } };
    }),
  },
  {
    name: 'wrapper-success-message',
    description: 'the wrapper answers `message: "ok"` on success instead of an empty message',
    breaks: ['wrapper-success-code'],
    after: wrapper((body) => ({ ...body, message: 'ok' })),
  },
  {
    name: 'upstream-id-exposed',
    description:
      "the wrapper's `data.task_id` is the upstream's task number instead of the public task ID",
    breaks: ['public-id-only'],
    after: wrapper((body, { task }) => ({
      ...body,
      data: { ...wrapperData(body), task_id: upstreamTaskNumber(task.id, task.createdAt) },
    })),
  },
];
