import type { Redactor } from '../../src/redaction/redactor.ts';
import { apiErrorOf, messageOf } from './error-facts.ts';
import {
  NOT_REACHED,
  STEPS,
  emptyRecord,
  type ModelVerification,
  type StepKey,
  type StepResult,
} from './model-verification.ts';

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
