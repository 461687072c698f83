import {
  FORM_BITS,
  evidenceOf,
  streamEvidence,
  streamOf,
  type CallerTrack,
  type PollStream,
  type TaskTrack,
} from './caller-track.ts';
import { running, STATUS, type Judging } from './judging.ts';
import type { Observation } from './observation.ts';
import { RULE } from './rule-table.ts';
import { unissuedTask } from './request-rules.ts';
import { situationBit, stateBit } from './situations.ts';

const QUERY_5XX = situationBit('query-5xx');
const NOT_FOUND = situationBit('task-not-found');
const LONG_RUNNING = situationBit('long-running');
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/**
 * A status query (§4.2, §4.3, §4.5): the 5xx retry limit and the end of the loop (§7, §3), the
 * attempt count, pace and growth (§8), the slow-down on `unknown` (§3), each on the mock's clock.
 */
export function judgeQuery(j: Judging, caller: CallerTrack, o: Observation): void {
  const form = o.form!;
  caller.forms |= FORM_BITS[form];
  if (o.status >= 500) caller.met |= QUERY_5XX;
  if (o.taskId === undefined) {
    // Missing or another user's: 400 (`task_not_exist`, the gateway) or 404; not a 401 or a 429.
    if (o.status === 400 || o.status === 404) {
      caller.met |= NOT_FOUND;
      unissuedTask(j, caller, o);
    }
    return;
  }
  const track = caller.task(o.taskId);
  const stream = streamOf(track, form);
  // The same answer as the stream's last (a polling loop): its bits are known, nothing looked up.
  if (o.told !== undefined)
    caller.met |= o.told === stream.told ? stream.toldMet : stateBit(form, o.told);
  // Arrived after a later query of the same loop (workers): nothing is judged on it.
  if (o.order < stream.order) return;
  limits(j, caller, track, o);
  const interval = queryInterval(track, stream, o);
  if (stream.ok && j.timing.measurable(interval)) pace(j, caller, track, stream, o);
  growth(j, caller, track, stream, o);
  update(j, track, stream, o, interval);
  // A comparison per query until met (the track knows when), then one bit test.
  if (o.at >= track.longAfter && (caller.met & LONG_RUNNING) === 0)
    if (stream.ok && running(stream.toldBits)) caller.met |= LONG_RUNNING;
}

/**
 * The time since the stream's previous query (its submission for the first), NaN when unknown. Read
 * by each rule until `update` moves the stream on: a subtraction, cheaper than carrying it along.
 */
function queryInterval(track: TaskTrack, stream: PollStream, o: Observation): number {
  return o.at - (Number.isNaN(stream.at) ? (track.submitted?.at ?? Number.NaN) : stream.at);
}

/** §7 a limited number of 5xx retries, §3 the loop stops when finished, §8 at most 60 attempts. */
function limits(j: Judging, caller: CallerTrack, track: TaskTrack, o: Observation): void {
  const { maxInRow, rereadsAllowed, maxAttempts } = j.numbers;
  if (track.failsInRow >= maxInRow) {
    const last = track.latest!;
    j.breach(RULE['query-5xx-retry-limited'], caller, track, o.at, () => ({
      message:
        `queried ${track.id} again after ${track.failsInRow} answers in a row were 5xx ` +
        `(more than ${maxInRow}: not a limited number of retries)`,
      requests: [streamEvidence(last), evidenceOf(o)],
    }));
  }
  if (track.finished !== undefined) {
    if (++track.rereads > rereadsAllowed) {
      const finished = track.finished;
      j.breach(RULE['stop-polling-when-finished'], caller, track, o.at, () => ({
        message:
          `queried ${track.id} ${track.rereads} times after it was told the task finished ` +
          `(at ${new Date(finished.at).toISOString()}): the polling loop did not stop`,
        requests: [finished, evidenceOf(o)],
      }));
    }
  } else if (++track.queries > maxAttempts) {
    const count = track.queries;
    j.breach(RULE['poll-attempts'], caller, track, o.at, () => ({
      message: `queried ${track.id} ${count} times without being told it finished (§8: at most ${maxAttempts})`,
      requests: [evidenceOf(o)],
    }));
  }
}

/** §8 the first interval (advice) and §3 the slow-down on `unknown` (violation). */
function pace(
  j: Judging,
  caller: CallerTrack,
  track: TaskTrack,
  stream: PollStream,
  o: Observation,
): void {
  const interval = queryInterval(track, stream, o);
  const { minIntervalMs: minimum, slowerBy } = j.numbers;
  const { timing } = j;
  if ((stream.toldBits & STATUS.again) !== 0 && timing.shorter(interval, minimum)) {
    j.breach(RULE['poll-interval'], caller, track, o.at, () => ({
      message:
        `queried ${track.id} ${seconds(interval)} after the previous query, which said ` +
        `${stream.told}: sooner than ${seconds(minimum)} (§8 recommends 5 s first, growing to 30 s)`,
      requests: [streamEvidence(stream), evidenceOf(o)],
    }));
  }
  if (
    stream.told === 'unknown' &&
    stream.baseline >= 0 &&
    timing.notLonger(interval, stream.baseline * (1 + slowerBy))
  ) {
    const baseline = stream.baseline;
    j.breach(RULE['unknown-slows-polling'], caller, track, o.at, () => ({
      message:
        `after ${track.id} said unknown, queried it again ${seconds(interval)} later, no slower ` +
        `than the ${seconds(baseline)} kept before: the polling rate was not lowered`,
      requests: [streamEvidence(stream), evidenceOf(o)],
    }));
  }
  // §8's ceiling: one comparison for a loop within it (nearly every query).
  if (timing.longer(interval, j.numbers.pastCeilingMs)) ceiling(j, caller, track, stream, o);
}

/**
 * §8 the ceiling (advice): a running task polled again, still running, more than the ceiling (by
 * `overCeilingBy`) after the previous answer said it was running. After `unknown` the loop slows on
 * purpose (§3), after an error it retries, and a task that finished meanwhile lost the loop nothing.
 */
function ceiling(
  j: Judging,
  caller: CallerTrack,
  track: TaskTrack,
  stream: PollStream,
  o: Observation,
): void {
  const interval = queryInterval(track, stream, o);
  const { pastCeilingMs } = j.numbers;
  if (!running(stream.toldBits) || o.status < 200 || o.status > 299) return;
  if (!j.isRunning(o.told ?? 'unknown')) return;
  j.breach(RULE['poll-ceiling'], caller, track, o.at, () => ({
    message:
      `queried ${track.id} ${seconds(interval)} after the previous query said ${stream.told}, ` +
      `and it was still running: slower than §8's ceiling of 30 s (more than ` +
      `${seconds(pastCeilingMs)} on the mock's clock)`,
    requests: [streamEvidence(stream), evidenceOf(o)],
  }));
}

/**
 * §8 the interval grows (advice): `flatIntervals` intervals in a row, each after a `queued` or
 * `in_progress` answer, between the floor and the ceiling, none `grownBy` longer than the row's
 * shortest. Any other interval ends the row; a grown one starts a new row. O(1): the row is three
 * numbers on the stream.
 */
function growth(
  j: Judging,
  caller: CallerTrack,
  track: TaskTrack,
  stream: PollStream,
  o: Observation,
): void {
  const interval = queryInterval(track, stream, o);
  const { minIntervalMs, ceilingMs, grownBy, flatIntervals } = j.numbers;
  // On a real clock every interval gets the benefit of the timing tolerance: never a false advice.
  const noise = j.timing.toleranceMs;
  const counts =
    stream.ok &&
    running(stream.toldBits) &&
    j.timing.measurable(interval) &&
    interval >= minIntervalMs &&
    interval + noise < ceilingMs;
  if (!counts) {
    stream.flatRow = 0;
    return;
  }
  if (stream.flatRow === 0 || interval + noise >= (stream.flatShortest - noise) * (1 + grownBy)) {
    stream.flatRow = 1;
    stream.flatShortest = interval;
    stream.flatSince = stream.at;
    return;
  }
  if (interval < stream.flatShortest) stream.flatShortest = interval;
  if (++stream.flatRow < flatIntervals) return;
  // A breach starts a new row: a flat loop counts once more per `flatIntervals` flat intervals.
  stream.flatRow = 0;
  const { flatShortest: shortest, flatSince: since } = stream;
  j.breach(RULE['poll-growth'], caller, track, o.at, () => ({
    message:
      `queried ${track.id} ${flatIntervals} times in a row while it was running (since ` +
      `${new Date(since).toISOString()}), each interval less than ${Math.round(grownBy * 100)} % ` +
      `longer than the shortest (${seconds(shortest)}): the interval did not grow (§8: 5 s, ` +
      `growing to 30 s)`,
    requests: [streamEvidence(stream), evidenceOf(o)],
  }));
}

function update(
  j: Judging,
  track: TaskTrack,
  stream: PollStream,
  o: Observation,
  interval: number,
): void {
  const ok = o.status >= 200 && o.status < 300;
  if (ok && o.told !== undefined) {
    const startsUnknown = o.told === 'unknown' && stream.told !== 'unknown';
    if (startsUnknown) stream.baseline = j.timing.measurable(interval) ? interval : -1;
    else if (o.told !== 'unknown') stream.baseline = -1;
    if (o.told !== stream.told) {
      stream.told = o.told;
      stream.toldBits = j.statusBits(o.told);
      stream.toldMet = stateBit(stream.form, o.told);
    }
    const bits = stream.toldBits;
    if (running(bits)) track.seenRunning = true;
    if (o.told === 'completed') track.toldCompleted = true;
    if (track.finished === undefined && (bits & STATUS.stops) !== 0) track.finished = evidenceOf(o);
  }
  track.failsInRow = o.status >= 500 ? track.failsInRow + 1 : 0;
  stream.at = o.at;
  stream.order = o.order;
  stream.method = o.method;
  stream.path = o.path;
  stream.status = o.status;
  stream.ok = ok;
  track.latest = stream;
}
