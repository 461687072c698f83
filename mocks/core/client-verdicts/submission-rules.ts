import {
  attemptEvidence,
  evidenceOf,
  newTrack,
  streamEvidence,
  type AttemptRun,
  type CallerTrack,
  type TaskTrack,
} from './caller-track.ts';
import type { Judging } from './judging.ts';
import { RequestFlag, type Observation } from './observation.ts';
import { RULE } from './rule-table.ts';
import { situationBit } from './situations.ts';

const MET = {
  rateLimited: situationBit('submission-429'),
  lost: situationBit('lost-answer'),
  invalid: situationBit('refused-400'),
  forbidden: situationBit('refused-403'),
  unbound: situationBit('second-family-unbound'),
  references: situationBit('second-family-references'),
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * A submission (§4.1, §4.5): a resubmission of a running task (§3, §7), a direct retry of a refusal,
 * a retry after 429 without backoff, a lost answer repeated (§7); then the task it created.
 */
export function judgeSubmission(j: Judging, caller: CallerTrack, o: Observation): void {
  meet(caller, o);
  const earlier = sameTask(caller, o);
  if (earlier !== undefined && resubmits(j, earlier, o)) resubmission(j, caller, earlier, o);
  const run = caller.attempt(o.fingerprint, o.lost || (o.status >= 400 && o.status < 500));
  if (run !== undefined && run.order < o.order) {
    retryAfterRefusal(j, caller, run, o);
    retryAfter429(j, caller, run, o);
    repeatAfterLoss(j, caller, run, o);
  }
  if (run !== undefined && run.order <= o.order) record(run, o);
  if (o.taskId !== undefined && o.status >= 200 && o.status < 300) {
    const track = caller.remember(newTrack(o.taskId, o, j.numbers.longRunningMs));
    // The answer told the lifecycle's initial state (§4.1: `queued`), unless it never arrived.
    track.seenRunning = !o.lost && o.told !== undefined && j.isRunning(o.told);
  }
}

function meet(caller: CallerTrack, o: Observation): void {
  if (o.secondFamily) caller.secondFamily = true;
  if (o.status === 429) caller.met |= MET.rateLimited;
  else if (o.status === 400) caller.met |= MET.invalid;
  else if (o.status === 403) caller.met |= MET.forbidden;
  if (o.lost) caller.met |= MET.lost;
  if (o.secondFamily && !o.bound && o.status >= 400) caller.met |= MET.unbound;
  if ((o.flags & RequestFlag.references) !== 0) caller.met |= MET.references;
}

/** The caller's earlier task this submission repeats: the one with its request ID, else its body's. */
function sameTask(caller: CallerTrack, o: Observation): TaskTrack | undefined {
  const byId =
    o.clientRequestId === undefined ? undefined : caller.byClientRequestId.get(o.clientRequestId);
  return byId ?? caller.byFingerprint.get(o.fingerprint);
}

/** The earlier task was seen running, not seen finished, and had not finished when this came. */
function resubmits(j: Judging, earlier: TaskTrack, o: Observation): boolean {
  return (
    earlier.submitOrder < o.order &&
    earlier.seenRunning &&
    earlier.finished === undefined &&
    earlier.id !== o.taskId &&
    j.unfinished(earlier.id, o.at)
  );
}

/** §3 rule 1 / §7; after a 5xx on its last query, the §7 row of that situation instead. */
function resubmission(j: Judging, caller: CallerTrack, earlier: TaskTrack, o: Observation): void {
  const afterError = earlier.latest !== undefined && earlier.latest.status >= 500;
  const same = o.clientRequestId !== undefined && o.clientRequestId === earlier.clientRequestId;
  const how = same
    ? `the same request ID ${o.clientRequestId}`
    : 'the same model, prompt and parameters';
  const told = afterError
    ? `its last status query was answered ${earlier.latest!.status}`
    : `the caller had been told it was running (last: ${earlier.latest?.told ?? 'queued'}), never that it finished`;
  const requests = [
    ...(earlier.submitted === undefined ? [] : [earlier.submitted]),
    ...(earlier.latest === undefined ? [] : [streamEvidence(earlier.latest)]),
    evidenceOf(o),
  ];
  const rule = RULE[afterError ? 'query-5xx-no-new-task' : 'no-resubmission'];
  j.breach(rule, caller, earlier, o.at, () => ({
    message: `submitted ${earlier.id} again (${how}) while it was unfinished: ${told}`,
    requests,
  }));
}

/** §7 "Submission returns 4xx": the same submission again, with nothing in the mock changed. */
function retryAfterRefusal(j: Judging, caller: CallerTrack, run: AttemptRun, o: Observation): void {
  if (run.lost || run.status < 400 || run.status > 499 || run.status === 429) return;
  if (run.bound !== o.bound) return;
  j.breach(RULE['no-direct-retry-after-4xx'], caller, undefined, o.at, () => ({
    message: `sent the same submission again after it was refused with ${run.status}, unchanged`,
    requests: [attemptEvidence(run), evidenceOf(o)],
  }));
}

/**
 * §7 "Submission returns 429": retry with backoff. The first retry after a 429 waits at least its
 * `Retry-After` (or, without one, waits at all); after two or more 429s in a row each wait grows (or
 * honours the `Retry-After`). Every time on the mock's clock, with its one tolerance (decisions/044).
 */
function retryAfter429(j: Judging, caller: CallerTrack, run: AttemptRun, o: Observation): void {
  if (run.status !== 429) return;
  const { timing } = j;
  const wait = o.at - run.at;
  if (!timing.measurable(wait)) return;
  const previous = run.wait;
  const retryAfter = run.retryAfterMs;
  const honoursRetryAfter = retryAfter >= 0 && !timing.shorter(wait, retryAfter);
  const asked = retryAfter >= 0 ? `Retry-After asked ${seconds(retryAfter)}` : '';
  let message: string;
  if (previous < 0 || !timing.measurable(previous)) {
    // The first retry: sooner than Retry-After, or with none, no wait at all.
    if (retryAfter >= 0 ? honoursRetryAfter : !timing.atOnce(wait)) return;
    message =
      retryAfter >= 0
        ? `retried a submission ${seconds(wait)} after its 429: sooner than ${asked}`
        : `retried a submission ${seconds(wait)} after its 429, without waiting`;
  } else {
    const flat = timing.notLonger(wait, previous * (1 + j.numbers.growBy));
    if (!flat || honoursRetryAfter) return;
    message =
      `retried a submission ${seconds(wait)} after its 429, after waiting ${seconds(previous)} ` +
      `before: the wait does not grow${asked === '' ? '' : `, and ${asked}`}`;
  }
  j.breach(RULE['backoff-after-429'], caller, undefined, o.at, () => ({
    message,
    requests: [attemptEvidence(run), evidenceOf(o)],
  }));
}

/** §7 "Submission connection times out": no endless repeats; the client's own records. */
function repeatAfterLoss(j: Judging, caller: CallerTrack, run: AttemptRun, o: Observation): void {
  if (run.lostInRow === 0) return;
  const first = run.firstLost!;
  if (o.clientRequestId === undefined || o.clientRequestId !== run.lostClientRequestId)
    j.breach(RULE['lost-answer-idempotency-records'], caller, undefined, o.at, () => ({
      message:
        'sent a submission whose answer was lost again ' +
        (run.lostClientRequestId === undefined
          ? 'with no request ID to check it by'
          : 'under another request ID than the lost one'),
      requests: [first, evidenceOf(o)],
    }));
  const { maxRepeats } = j.numbers;
  if (run.lostInRow > maxRepeats) {
    const lost = run.lostInRow;
    j.breach(RULE['lost-answer-retry-limited'], caller, undefined, o.at, () => ({
      message: `sent a submission again after its answer was lost ${lost} times in a row (more than ${maxRepeats})`,
      requests: [first, attemptEvidence(run), evidenceOf(o)],
    }));
  }
}

function record(run: AttemptRun, o: Observation): void {
  run.wait = run.status === 429 && o.order > run.order ? o.at - run.at : -1;
  if (o.lost) {
    if (run.lostInRow++ === 0) {
      run.firstLost = evidenceOf(o);
      run.lostClientRequestId = o.clientRequestId;
    }
  } else run.lostInRow = 0;
  run.method = o.method;
  run.path = o.path;
  run.at = o.at;
  run.order = o.order;
  run.status = o.status;
  run.lost = o.lost;
  run.bound = o.bound;
  run.retryAfterMs = o.retryAfterMs;
}
