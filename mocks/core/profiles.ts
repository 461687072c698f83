import type { ErrorKind } from './errors.ts';

export type ProfileName = 'documented' | 'observed';

/**
 * How the mock fills what the document leaves open. `documented`: the document, its silences filled
 * by the spec's marked assumptions. `observed`: the deployed gateway's known habits
 * (`spec/reference-gateway-facts.md`), each listed in docs/mock.md under "The observed profile".
 */
export interface Profile {
  readonly name: ProfileName;
  /** A new task reads `unknown` for this long (ms range) before `queued` (the gateway stores NOT_START first). */
  readonly unknownFirstMs: readonly [number, number];
  /** Progress shown per phase instead of a smooth curve: queued, running (the gateway's 10 / 50). */
  readonly progressSteps?: { readonly queued: number; readonly running: number } | undefined;
  /** `completed_at` carries the row's update time while the task is not done. */
  readonly completedAtWhileRunning: boolean;
  /** `metadata.url` is present as `""` until the task completes. */
  readonly emptyUrlUntilDone: boolean;
  /** The wrapper's `data` also carries the gateway's row fields (id, user_id, group, quota, …). */
  readonly wrapperRowFields: boolean;
  /** OpenAI-style error messages end with ` (request id: …)`. */
  readonly requestIdSuffix: boolean;
  /** The submission answer carries `X-New-Api-Other-Ratios`. */
  readonly otherRatiosHeader: boolean;
  /** Submissions may be `multipart/form-data` (the spec's `SubmitForm`), as the gateway accepts; otherwise 415. */
  readonly multipartSubmissions: boolean;
  /** Error kinds this profile answers differently. */
  readonly errors: Readonly<Partial<Record<ErrorKind, ErrorKind>>>;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  documented: {
    name: 'documented',
    unknownFirstMs: [0, 0],
    completedAtWhileRunning: false,
    emptyUrlUntilDone: false,
    wrapperRowFields: false,
    requestIdSuffix: false,
    otherRatiosHeader: false,
    multipartSubmissions: false,
    errors: {},
  },
  observed: {
    name: 'observed',
    unknownFirstMs: [500, 2_500],
    progressSteps: { queued: 10, running: 50 },
    completedAtWhileRunning: true,
    emptyUrlUntilDone: true,
    wrapperRowFields: true,
    requestIdSuffix: true,
    otherRatiosHeader: true,
    multipartSubmissions: true,
    errors: {
      missing_api_key: 'gateway_invalid_token',
      invalid_api_key: 'gateway_invalid_token',
      status_task_not_found: 'task_not_exist',
    },
  },
};

export function isProfileName(name: string): name is ProfileName {
  return name === 'documented' || name === 'observed';
}
