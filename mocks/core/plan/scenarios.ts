import { retryAfterSeconds, type Clock } from '../clock.ts';
import { UPSTREAM_FAILURES, type TaskPlan } from './plan.ts';
import type { Random } from './random.ts';
import type { ErrorDetail, ErrorKind } from '../http/errors.ts';
import type { LostAnswer } from '../http/http-types.ts';

/**
 * Per-task scenarios a client picks with `X-Mock-Scenario: NAME[:ARG]` or `[mock:NAME[:ARG]]` in the
 * prompt. A scenario either refuses the submission (`refuse`) or shapes the task's plan (`plan`).
 */
export interface Scenario {
  readonly name: string;
  readonly argument?: string;
  readonly description: string;
  /** Throws `ScenarioArgumentError` for a bad argument. `clock` turns simulated waits into real ones. */
  readonly refuse?: (
    arg: string | undefined,
    clock: Pick<Clock, 'speed'>,
  ) => {
    readonly kind: ErrorKind;
    readonly detail: ErrorDetail;
    readonly headers?: Record<string, string>;
  };
  /** When the refusal happens: before any check (a limiter in front), or after validation (the upstream). */
  readonly stage?: 'front' | 'upstream';
  readonly plan?: (base: TaskPlan, arg: string | undefined, random: Random) => TaskPlan;
  /** The task is created, then its answer is lost (the hosts drop or hold it). */
  readonly lose?: (arg: string | undefined) => LostAnswer;
  /**
   * The argument as it is kept (in the task's plan, its ID or the state's extras): a number in its
   * shortest form (`000005` → `5`), so that one value is one argument. Default: as written.
   */
  readonly canonical?: (arg: string) => string;
}

export class ScenarioArgumentError extends Error {}

/** A number's shortest form (`000005`, `5.0`, `5e0` → `5`); anything else as written (refused later). */
const asNumber = (arg: string): string => {
  const n = Number(arg);
  return arg.trim() === '' || !Number.isFinite(n) ? arg : String(n);
};

function seconds(arg: string | undefined, fallback: number, name: string): number {
  if (arg === undefined || arg === '') return fallback;
  const n = Number(arg);
  if (!Number.isFinite(n) || n < 0 || n > 86_400)
    throw new ScenarioArgumentError(`${name} takes a number of seconds (0–86400), got "${arg}"`);
  return n;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'succeed',
    description: 'queued for seconds, runs for tens of seconds, completes (the default)',
    plan: (base) => ({
      ...base,
      outcome: 'succeed',
      scenario: 'succeed',
      errorCode: undefined,
      errorMessage: undefined,
    }),
  },
  {
    name: 'fail',
    argument: 'CODE',
    description:
      'runs a while, then fails with an upstream-like error.code (default OutputVideoSensitiveContentDetected)',
    plan: (base, arg, random) => {
      if (arg !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(arg))
        throw new ScenarioArgumentError(
          `fail takes an error code of letters, digits, _ . -, got "${arg}"`,
        );
      const known = UPSTREAM_FAILURES.find((f) => f.code === (arg ?? UPSTREAM_FAILURES[0]!.code));
      return {
        ...base,
        runMs: Math.round(base.runMs * random.between(0.3, 0.9)),
        outcome: 'fail',
        errorCode: arg ?? known!.code,
        errorMessage: known?.message ?? `The upstream reported ${arg}.`,
        scenario: arg === undefined ? 'fail' : `fail:${arg}`,
      };
    },
  },
  {
    name: 'fail-at-submit',
    canonical: asNumber,
    argument: 'STATUS',
    description:
      'the upstream refuses the submission: 400 fail_to_fetch_task (or the given 4xx/5xx status); no task is created',
    stage: 'upstream',
    refuse: (arg) => {
      const status = arg === undefined ? 400 : Number(arg);
      if (!Number.isInteger(status) || status < 400 || status > 599)
        throw new ScenarioArgumentError(
          `fail-at-submit takes an HTTP status 400–599, got "${arg}"`,
        );
      const upstream = JSON.stringify({
        error: {
          code: 'InvalidParameter',
          message:
            'The request failed because the input parameters are invalid (mock scenario fail-at-submit).',
        },
      });
      return { kind: 'upstream_refused', detail: { upstream, httpStatus: status } };
    },
  },
  {
    name: 'slow',
    description: 'queued for 30–90 s, runs for 3–6 min, then completes',
    plan: (base, _arg, random) => ({
      ...base,
      queueMs: base.unknownMs + Math.round(random.between(30_000, 90_000)),
      runMs: Math.round(random.between(180_000, 360_000)),
      scenario: 'slow',
    }),
  },
  {
    name: 'stuck',
    description: 'starts running and never finishes',
    plan: (base) => ({
      ...base,
      runMs: Number.POSITIVE_INFINITY,
      outcome: 'stuck',
      scenario: 'stuck',
    }),
  },
  {
    name: 'unknown',
    canonical: asNumber,
    argument: 'SECONDS',
    description: 'reports `unknown` for a while (default 15 s), then goes on normally',
    plan: (base, arg) => {
      const unknownMs = seconds(arg, 15, 'unknown') * 1000;
      return {
        ...base,
        unknownMs,
        queueMs: unknownMs + (base.queueMs - base.unknownMs),
        scenario: arg === undefined ? 'unknown' : `unknown:${arg}`,
      };
    },
  },
  {
    name: 'flaky',
    canonical: asNumber,
    argument: 'EVERY',
    description:
      'every EVERY-th status query (default 2: the 1st, 3rd, …) answers a temporary 503; the task itself completes',
    plan: (base, arg) => {
      const every = arg === undefined ? 2 : Number(arg);
      if (!Number.isInteger(every) || every < 1 || every > 1000)
        throw new ScenarioArgumentError(`flaky takes a whole number 1–1000, got "${arg}"`);
      return { ...base, flakyEvery: every, scenario: arg === undefined ? 'flaky' : `flaky:${arg}` };
    },
  },
  {
    name: 'rate-limit',
    canonical: asNumber,
    argument: 'SECONDS',
    description:
      "the submission answers 429 with Retry-After (default 2 s of the mock's clock, sent in real " +
      'seconds); no task is created',
    stage: 'front',
    refuse: (arg, clock) => {
      const wait = retryAfterSeconds(clock, seconds(arg, 2, 'rate-limit') * 1000);
      return {
        kind: 'upstream_rate_limited',
        detail: { problem: String(wait) },
        headers: { 'retry-after': String(wait) },
      };
    },
  },
  {
    name: 'lost-answer',
    canonical: asNumber,
    argument: 'SECONDS',
    description:
      'the submission creates the task (which then completes), but its answer ' +
      'is lost, as when the connection times out (§7): dropped unanswered, or ' +
      'with SECONDS held that many real seconds before it is sent',
    plan: (base, arg) => ({
      ...base,
      scenario: arg === undefined ? 'lost-answer' : `lost-answer:${arg}`,
    }),
    lose: (arg) =>
      arg === undefined ? {} : { holdMs: Math.round(seconds(arg, 0, 'lost-answer') * 1000) },
  },
];

const BY_NAME = new Map(SCENARIOS.map((s) => [s.name, s]));

export interface ScenarioChoice {
  readonly scenario: Scenario;
  readonly arg: string | undefined;
}

const TAG_OPEN = '[mock:';

/**
 * The first `[mock:NAME]` or `[mock:NAME:ARG]` in a prompt (NAME of `a-z` and `-`, ARG up to the first
 * `]` or space). One pass, linear in the prompt: a prompt is request data, and a backtracking pattern
 * took seconds on `[mock:a:` repeated (test/mocks/prompt-tag-linear-time.e2e.test.ts).
 */
export function promptTag(prompt: string): { name: string; arg: string | undefined } | undefined {
  let argEnd = -1; // where the last scanned argument stopped: later tags inside it stop there too
  for (let at = prompt.indexOf(TAG_OPEN); at >= 0; at = prompt.indexOf(TAG_OPEN, at + 1)) {
    const nameStart = at + TAG_OPEN.length;
    let i = nameStart;
    while (i < prompt.length && isNameChar(prompt.charCodeAt(i))) i++;
    if (i === nameStart) continue;
    const name = prompt.slice(nameStart, i);
    if (prompt[i] === ']') return { name, arg: undefined };
    if (prompt[i] !== ':') continue;
    if (argEnd <= i) argEnd = argumentEnd(prompt, i + 1);
    if (prompt[argEnd] === ']') return { name, arg: prompt.slice(i + 1, argEnd) };
  }
  return undefined;
}

const isNameChar = (code: number) => (code >= 97 && code <= 122) || code === 45; // a-z, -

/** The index of the first `]` or white space from `from` on (the prompt's length if none). */
function argumentEnd(prompt: string, from: number): number {
  let i = from;
  while (i < prompt.length && prompt[i] !== ']' && !/\s/.test(prompt[i]!)) i++;
  return i;
}

/**
 * The longest scenario name and argument accepted (the longest name is 14 characters; `fail`'s error
 * code, the longest argument, is at most 64): an argument is kept with every task that names it, so it
 * is bounded once, here, before anything keeps it (issue 33 item 9: arguments of a megabyte each made
 * 300 submissions cost 325 MB of memory and 240 MB of state file).
 */
export const MAX_SCENARIO_NAME = 32;
export const MAX_SCENARIO_ARGUMENT = 64;

/**
 * The scenario a submission asks for: the header wins over a prompt tag; none means `succeed`.
 * Returns the unknown name (cut to `MAX_SCENARIO_NAME`) when there is no such scenario, and the problem
 * when the argument is longer than `MAX_SCENARIO_ARGUMENT`; the argument chosen is in its canonical form.
 */
export function chooseScenario(
  header: string | undefined,
  prompt: unknown,
): ScenarioChoice | { unknown: string } | { invalid: string } {
  let name: string | undefined;
  let arg: string | undefined;
  if (header !== undefined && header.trim() !== '') {
    const text = header.trim();
    const colon = text.indexOf(':');
    name = colon < 0 ? text : text.slice(0, colon);
    arg = colon < 0 ? undefined : text.slice(colon + 1);
  } else if (typeof prompt === 'string') {
    const tag = promptTag(prompt);
    if (tag !== undefined) ({ name, arg } = tag);
  }
  if (name === undefined) return { scenario: BY_NAME.get('succeed')!, arg: undefined };
  const scenario = BY_NAME.get(name.toLowerCase());
  if (scenario === undefined)
    return {
      unknown: name.length > MAX_SCENARIO_NAME ? `${name.slice(0, MAX_SCENARIO_NAME)}…` : name,
    };
  if (arg === undefined || arg === '') return { scenario, arg: undefined };
  if (arg.length > MAX_SCENARIO_ARGUMENT)
    return {
      invalid:
        `the argument of ${scenario.name} is ${arg.length} characters long: at most ` +
        `${MAX_SCENARIO_ARGUMENT} are accepted`,
    };
  return { scenario, arg: scenario.canonical?.(arg) ?? arg };
}

export function scenarioNames(): string {
  return SCENARIOS.map((s) => s.name).join(', ');
}
