import type { ServerResponse } from 'node:http';
import type { LostAnswer } from '../core/http-types.ts';

/**
 * The node:http side of the `lost-answer` scenario (§7 "submission connection times out"): the task
 * exists, and its answer never arrives. Without `holdMs` the connection is destroyed unanswered;
 * with it, `deliver` runs after `holdMs` unless the client has gone by then.
 */
export function loseAnswer(res: ServerResponse, lost: LostAnswer, deliver: () => void): void {
  if (lost.holdMs === undefined) {
    res.socket?.destroy();
    return;
  }
  const timer = setTimeout(deliver, lost.holdMs);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}
