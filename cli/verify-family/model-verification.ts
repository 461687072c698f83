/** One model's verification record (§9 steps 3–5) and the steps it is made of. */

export type StepOutcome = 'passed' | 'failed' | 'skipped';

export const STEPS = {
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
  ok: boolean;
}

/** The detail of a step that an earlier failure kept from running, until a reason is known. */
export const NOT_REACHED = 'not reached: an earlier step failed';

/** A record with every step skipped, before anything is checked. */
export function emptyRecord(model: string, baseUrl: string, dryRun: boolean): ModelVerification {
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
    ok: false,
  };
}
