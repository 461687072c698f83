import {
  canTransition,
  isTerminal,
  type Lifecycle,
  type VideoStatus,
} from '../../src/spec/index.ts';
import type { HttpRecorder, KeptExchange } from '../http-recorder.ts';
import type { Cell, TaskState } from '../matrix/cells.ts';
import type { Verdicts } from '../verdicts.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf } from './evidence.ts';
import type { VideoView } from './task-object.ts';
import type { WrapperView } from './wrapper-object.ts';

/**
 * One look at a task by its owner: both query forms, and the state the run attributes to it. Kept for
 * the whole run, so it holds the fields of each form (`keptView`) and excerpts, not whole answers.
 */
export interface Poll {
  readonly video: VideoView;
  readonly videoExchange: KeptExchange;
  readonly wrapper?: WrapperView | undefined;
  readonly wrapperExchange?: KeptExchange | undefined;
  /** The state of the look (the OpenAI form's, or the wrapper's when the OpenAI form's is not documented). */
  readonly state: TaskState | undefined;
}

const openAi = (state: TaskState | undefined): Cell | undefined =>
  state === undefined ? undefined : { route: 'getVideo', state, caller: 'owner' };
const wrapperCell = (state: TaskState | undefined): Cell | undefined =>
  state === undefined ? undefined : { route: 'getVideoGeneration', state, caller: 'owner' };
const known = (lifecycle: Lifecycle, status: unknown): status is VideoStatus =>
  lifecycle.states.values.includes(status as VideoStatus);

/**
 * Judges the sequence of states one task showed across looks, by `x-lifecycle`: legal transitions and
 * terminal states staying terminal (in the cell of the state the task left), progress never decreasing
 * (in the cell of the look that showed the lower value; the submission answer counts as the first
 * value), 100 once completed, timestamps in order.
 */
export function judgeSequence(
  v: Verdicts,
  recorder: HttpRecorder,
  taskId: string,
  polls: readonly Poll[],
  submittedProgress?: unknown,
): void {
  let previous: Poll | undefined;
  let lastProgress = submittedProgress;
  for (const poll of polls) {
    lastProgress = judgeSequenceStep(v, recorder, taskId, { previous, poll, lastProgress });
    previous = poll;
  }
}

/**
 * One look of a task's sequence judged against the look before it (`previous`, none for the first)
 * and the last progress seen (the submission answer's for the first): what `judgeSequence` does for
 * each look. A judge that sees looks one at a time (traffic it did not make, `contracts/traffic`)
 * calls it as each arrives. Returns the progress to hand to the next look.
 */
export function judgeSequenceStep(
  v: Verdicts,
  recorder: HttpRecorder,
  taskId: string,
  step: {
    readonly previous: Poll | undefined;
    readonly poll: Poll;
    readonly lastProgress: unknown;
  },
): unknown {
  const { previous, poll } = step;
  const { lifecycle } = v;
  let lastProgress = step.lastProgress;
  const ev = evidenceOf(recorder, poll.videoExchange, taskId, openAi(poll.state));
  const status = poll.video.status;
  if (
    previous !== undefined &&
    known(lifecycle, previous.video.status) &&
    known(lifecycle, status)
  ) {
    const from = previous.video.status;
    const fromEv = evidenceOf(recorder, poll.videoExchange, taskId, openAi(previous.state));
    if (isTerminal(lifecycle, from))
      v.expect(
        CHECKS.terminalStays,
        status === from,
        `the task was ${from}, then ${status}`,
        fromEv,
      );
    else
      v.expect(
        CHECKS.legalTransition,
        canTransition(lifecycle, from, status),
        `${from} → ${status} is not a transition of x-lifecycle`,
        fromEv,
      );
  }
  const progress = poll.video.progress;
  if (typeof lastProgress === 'number' && typeof progress === 'number')
    v.expect(
      CHECKS.progressMonotonic,
      progress >= lastProgress,
      `progress went from ${lastProgress} to ${progress}`,
      ev,
    );
  if (typeof progress === 'number') lastProgress = progress;
  if (status === 'completed') judgeCompleted(v, poll, ev);
  judgeWrapperTimes(v, recorder, taskId, poll);
  return lastProgress;
}

function judgeCompleted(v: Verdicts, poll: Poll, ev: ReturnType<typeof evidenceOf>): void {
  v.expect(
    CHECKS.progressComplete,
    poll.video.progress === 100,
    `a completed task reports progress ${String(poll.video.progress)}`,
    ev,
  );
  const created = poll.video.created_at;
  const completed = poll.video.completed_at;
  if (typeof created === 'number' && typeof completed === 'number')
    v.expect(
      CHECKS.timestampsOrdered,
      created <= completed,
      `completed_at ${completed} is before created_at ${created}`,
      ev,
    );
}

function judgeWrapperTimes(v: Verdicts, recorder: HttpRecorder, taskId: string, poll: Poll): void {
  const data = poll.wrapper?.data;
  if (data === null || data === undefined || poll.wrapperExchange === undefined) return;
  if (typeof data.created_at !== 'number' || typeof data.updated_at !== 'number') return;
  v.expect(
    CHECKS.timestampsOrdered,
    data.created_at <= data.updated_at,
    `the wrapper's updated_at ${data.updated_at} is before created_at ${data.created_at}`,
    evidenceOf(recorder, poll.wrapperExchange, taskId, wrapperCell(poll.state)),
  );
}
