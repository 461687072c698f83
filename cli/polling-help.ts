import { RECOMMENDED_POLLING } from '../src/spec/polling.ts';

const seconds = (ms: number): string => String(ms / 1000);

/** §8's recommended polling numbers as help texts say them, read from the spec's `x-polling`. */
export const POLLING_HELP = {
  initial: seconds(RECOMMENDED_POLLING.initialIntervalMs),
  factor: String(RECOMMENDED_POLLING.factor),
  max: seconds(RECOMMENDED_POLLING.maxIntervalMs),
  attempts: String(RECOMMENDED_POLLING.maxAttempts),
  /** "5 s, ×1.5, up to 30 s, at most 60 queries" */
  summary:
    `${seconds(RECOMMENDED_POLLING.initialIntervalMs)} s, ×${RECOMMENDED_POLLING.factor}, ` +
    `up to ${seconds(RECOMMENDED_POLLING.maxIntervalMs)} s, at most ` +
    `${RECOMMENDED_POLLING.maxAttempts} queries`,
} as const;
