/**
 * One model's verification record (§9 steps 3–5), the steps it is made of, and the `StepRecorder` the
 * steps fill it in with.
 */
import type { Redactor } from '../../src/redaction/redactor.ts';
import { apiErrorOf, messageOf } from './advice.ts';

/** The deployed gateway's billing header on a submission answer (reference gateway facts). */
export const OTHER_RATIOS_HEADER = 'X-New-Api-Other-Ratios';

export type StepOutcome = 'passed' | 'failed' | 'skipped';

const STEPS = {
  catalog: { step: 3, name: 'catalog lists the model' },
  submit: { step: 3, name: 'submit one short task' },
  poll: { step: 4, name: 'poll to the final state' },
  download: { step: 4, name: 'download through /content' },
  video: { step: 4, name: 'check that it is a video' },
  usage: { step: 4, name: 'usage and charge' },
  record: { step: 5, name: 'verification record' },
} as const;
export type StepKey = keyof typeof STEPS;

export interface StepResult {
  readonly step: 3 | 4 | 5;
  readonly name: string;
  outcome: StepOutcome;
  detail: string;
}

export interface UsageFinding {
  /** `null`: not looked for (the task never reached a final state). */
  exposed: boolean | null;
  detail: string;
  /** Raw fields by where they were found (`wrapper.data.quota`, `task.usage`, `native.usage`). */
  fields: Record<string, unknown>;
}

/** One model's verification record (the JSON `models[]` item). Never holds a key. */
export interface ModelVerification {
  model: string;
  /** ISO time this model's verification started. */
  date: string;
  baseUrl: string;
  /** The client's own request ID sent as `X-Request-Id` with the one submission (§7, §8). */
  clientRequestId: string | null;
  taskId: string | null;
  /**
   * The submission answer's `X-New-Api-Other-Ratios` header (the deployed gateway's billing ratios),
   * raw and redacted; `null` when the answer carried none. The document does not show it.
   */
  otherRatios: string | null;
  finalStatus: string | null;
  timings: { submitMs: number | null; toFinalStateMs: number | null; downloadMs: number | null };
  bytes: number | null;
  sha256: string | null;
  contentType: string | null;
  containerSignature: string | null;
  steps: StepResult[];
  httpStatus: number | null;
  errorCode: string | null;
  /** Redacted. */
  errorMessage: string | null;
  usage: UsageFinding;
  failedStep: { step: number; name: string } | null;
  /** What an administrator usually checks next, for the first failed step. */
  advice: string | null;
  /**
   * Set when the model failed because the run's input is wrong (the test token refused, without the
   * model's permission or quota: §5, §7), not the rollout: the run exits 2 for it, never 1 alone.
   */
  inputError: string | null;
  ok: boolean;
}

/** The detail of a step that an earlier failure kept from running, until a reason is known. */
const NOT_REACHED = 'not reached: an earlier step failed';

/** A record with every step skipped, before anything is checked. */
function emptyRecord(model: string, baseUrl: string, dryRun: boolean): ModelVerification {
  const steps = Object.values(STEPS).map((s): StepResult => ({
    step: s.step,
    name: s.name,
    outcome: 'skipped',
    detail: NOT_REACHED,
  }));
  const usageNotLookedFor = dryRun
    ? '--dry-run: not looked for'
    : 'not looked for: the task reached no final state';
  return {
    model,
    date: new Date().toISOString(),
    baseUrl,
    clientRequestId: null,
    taskId: null,
    otherRatios: null,
    finalStatus: null,
    timings: { submitMs: null, toFinalStateMs: null, downloadMs: null },
    bytes: null,
    sha256: null,
    contentType: null,
    containerSignature: null,
    steps,
    httpStatus: null,
    errorCode: null,
    errorMessage: null,
    usage: { exposed: null, detail: usageNotLookedFor, fields: {} },
    failedStep: null,
    advice: null,
    inputError: null,
    ok: false,
  };
}

/**
 * Fills in one model's record step by step: a step passes, fails (the first failure names the step
 * and the advice; an error's status, code and redacted message are kept), or is skipped with the
 * reason the run stopped. Every detail is redacted before it is recorded or logged.
 */
export class StepRecorder {
  readonly record: ModelVerification;
  readonly #redactor: Redactor;
  readonly #log: (text: string) => void;

  constructor(
    model: string,
    baseUrl: string,
    options: { dryRun: boolean; redactor: Redactor; log: (text: string) => void },
  ) {
    this.record = emptyRecord(model, baseUrl, options.dryRun);
    this.#redactor = options.redactor;
    this.#log = options.log;
  }

  step(key: StepKey): StepResult {
    return this.record.steps.find((s) => s.name === STEPS[key].name)!;
  }

  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  log(text: string): void {
    this.#log(text);
  }

  pass(key: StepKey, detail: string): void {
    Object.assign(this.step(key), { outcome: 'passed', detail });
  }

  fail(key: StepKey, detail: string, advice: string, error?: unknown): void {
    const { record } = this;
    const shown = this.redact(detail);
    Object.assign(this.step(key), { outcome: 'failed', detail: shown });
    if (record.failedStep === null) {
      record.failedStep = { step: STEPS[key].step, name: STEPS[key].name };
      record.advice = advice;
    }
    if (error !== undefined) {
      const api = apiErrorOf(error);
      record.httpStatus ??= api?.status ?? null;
      record.errorCode ??= api?.code ?? null;
      record.errorMessage ??= this.redact(messageOf(error));
    }
    this.#log(`step ${STEPS[key].step} failed (${STEPS[key].name}): ${shown}`);
  }

  /** Gives every step an earlier failure kept from running the reason the run stopped. */
  skipRest(why: string): void {
    for (const s of this.record.steps)
      if (s.outcome === 'skipped' && s.detail === NOT_REACHED) s.detail = why;
  }

  /** Sets `ok` (no step failed); step 5 is filled in by the caller once it knows where the record goes. */
  finish(): ModelVerification {
    this.record.ok = this.record.steps.every((s) => s.outcome !== 'failed');
    return this.record;
  }
}
