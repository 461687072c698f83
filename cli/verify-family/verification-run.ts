import type { ModelVerification } from './model-verification.ts';
import { DEFAULT_SECONDS, type VerifyFamilyOptions } from './verify-family-options.ts';
import type { VerificationRun } from './verification-record.ts';

const ASSUMED_SECONDS =
  `assumed: ${DEFAULT_SECONDS} s is the default, the smallest the mock and the gateway plugin ` +
  "accept; the document does not show the family's durations (§8), pass --seconds N to state it";

/** The whole run as recorded (§9 step 5): settings, outcome and every model's record. */
export function verificationRun(input: {
  readonly started: Date;
  readonly baseUrl: string;
  readonly maskedKey: string;
  readonly options: VerifyFamilyOptions;
  readonly results: readonly ModelVerification[];
  readonly interrupted: boolean;
}): VerificationRun {
  const { options, results } = input;
  const { poll } = options;
  const ok = results.every((r) => r.ok);
  return {
    kind: 'videotask verify-family',
    formatVersion: 1,
    date: input.started.toISOString(),
    baseUrl: input.baseUrl,
    apiKey: input.maskedKey,
    dryRun: options.dryRun,
    settings: {
      endpoint: 'POST /v1/videos',
      seconds: options.seconds,
      secondsSource: options.secondsGiven ? 'given with --seconds' : ASSUMED_SECONDS,
      prompt: options.prompt,
      poll: {
        initialMs: poll.initialIntervalMs,
        factor: poll.factor,
        maxMs: poll.maxIntervalMs,
        maxAttempts: poll.maxAttempts,
        timeoutMs: poll.timeoutMs,
      },
      pluginName: options.pluginName ?? null,
    },
    ok,
    exitCode: input.interrupted ? 130 : ok ? 0 : 1,
    models: results,
  };
}

/** Step 5 of each model, once the record's place is known: passed, or kept for investigation. */
export function markRecorded(
  results: readonly ModelVerification[],
  paths: { readonly json: string },
  started: Date,
): void {
  const day = started.toISOString().slice(0, 10);
  for (const r of results) {
    const s = r.steps.find((x) => x.step === 5)!;
    if (r.ok)
      Object.assign(s, {
        outcome: 'passed',
        detail:
          `recorded in ${paths.json} and .md: update the verification date of the catalog and of ` +
          `the document to ${day} (§9 step 5)`,
      });
    else
      s.detail =
        `not verified: this record (${paths.json} and .md) is kept for investigation by the error ` +
        'message (§9 step 5); do not update the verification date';
  }
}
