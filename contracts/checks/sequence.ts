import {
  canTransition,
  isTerminal,
  serviceContract,
  type VideoStatus,
} from '../../src/spec/index.ts';
import type { Exchange, HttpRecorder } from '../http-recorder.ts';
import type { Verdicts } from '../verdicts.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf } from './evidence.ts';
import type { VideoView, WrapperView } from './task-object.ts';

const { lifecycle } = serviceContract();

export interface Poll {
  readonly video: VideoView;
  readonly videoExchange: Exchange;
  readonly wrapper?: WrapperView | undefined;
}

/**
 * Judges the sequence of states one task showed across polls, by `x-lifecycle`: legal transitions,
 * terminal stays terminal, progress never decreasing, 100 once completed, timestamps in order.
 */
export function judgeSequence(
  v: Verdicts,
  recorder: HttpRecorder,
  taskId: string,
  polls: readonly Poll[],
): void {
  let previous: Poll | undefined;
  const known = (p: Poll) => lifecycle.states.values.includes(p.video.status as VideoStatus);
  for (const poll of polls) {
    const ev = evidenceOf(recorder, poll.videoExchange, taskId);
    const status = poll.video.status as VideoStatus;
    if (previous !== undefined && known(previous) && known(poll)) {
      const from = previous.video.status as VideoStatus;
      if (isTerminal(lifecycle, from))
        v.expect(CHECKS.terminalStays, status === from, `the task was ${from}, then ${status}`, ev);
      else
        v.expect(
          CHECKS.legalTransition,
          canTransition(lifecycle, from, status),
          `${from} → ${status} is not a transition of x-lifecycle`,
          ev,
        );
      const p0 = previous.video.progress;
      const p1 = poll.video.progress;
      if (typeof p0 === 'number' && typeof p1 === 'number')
        v.expect(CHECKS.progressMonotonic, p1 >= p0, `progress went from ${p0} to ${p1}`, ev);
    }
    if (status === 'completed')
      v.expect(
        CHECKS.progressComplete,
        poll.video.progress === 100,
        `a completed task reports progress ${String(poll.video.progress)}`,
        ev,
      );
    const created = poll.video.created_at;
    const completed = poll.video.completed_at;
    if (status === 'completed' && typeof created === 'number' && typeof completed === 'number')
      v.expect(
        CHECKS.timestampsOrdered,
        created <= completed,
        `completed_at ${completed} is before created_at ${created}`,
        ev,
      );
    const data = poll.wrapper?.data;
    if (
      data !== null &&
      data !== undefined &&
      typeof data.created_at === 'number' &&
      typeof data.updated_at === 'number'
    )
      v.expect(
        CHECKS.timestampsOrdered,
        data.created_at <= data.updated_at,
        `the wrapper's updated_at ${data.updated_at} is before created_at ${data.created_at}`,
        ev,
      );
    previous = poll;
  }
}
