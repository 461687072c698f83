import { serviceSpec } from './load-spec.ts';
import { basisOf, type Basis, type OpenApiDocument } from './spec-types.ts';

/**
 * The client polling loop §8 recommends, from the spec's `x-polling`: recommendations to clients, not
 * values the server enforces. The reference client's and the contract suite's defaults read them.
 */
export interface RecommendedPolling {
  readonly basis: Basis;
  /** First wait, ms (§8: 5 s). */
  readonly initialIntervalMs: number;
  /** Growth per query (§8 reference loop: 1.5). */
  readonly factor: number;
  /** Ceiling of the wait, ms (§8: 30 s). */
  readonly maxIntervalMs: number;
  /** Most queries (§8 reference loop: 60). */
  readonly maxAttempts: number;
  /** §8: "A total timeout must be set" (its value is the client's choice). */
  readonly totalTimeoutRequired: boolean;
}

/** Reads and checks `x-polling`. Throws naming the first bad value. */
export function readPolling(document: OpenApiDocument): RecommendedPolling {
  const raw = document['x-polling'] as Record<string, unknown> | undefined;
  if (raw === undefined) throw new Error('x-polling is missing: §8 recommends a polling loop');
  const number = (key: string, min: number): number => {
    const value = raw[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
      throw new Error(`x-polling.${key} must be a number ≥ ${min}, got ${JSON.stringify(value)}`);
    return value;
  };
  const initialIntervalMs = number('initialIntervalSeconds', 0) * 1000;
  const maxIntervalMs = number('maxIntervalSeconds', 0) * 1000;
  if (maxIntervalMs < initialIntervalMs)
    throw new Error('x-polling.maxIntervalSeconds must be ≥ initialIntervalSeconds');
  const maxAttempts = number('maxAttempts', 1);
  if (!Number.isInteger(maxAttempts)) throw new Error('x-polling.maxAttempts must be whole');
  if (raw['x-recommendation'] !== true)
    throw new Error('x-polling must be marked x-recommendation: true (§8: not server-enforced)');
  return {
    basis: basisOf(raw),
    initialIntervalMs,
    factor: number('factor', 1),
    maxIntervalMs,
    maxAttempts,
    totalTimeoutRequired: raw['totalTimeoutRequired'] === true,
  };
}

/** §8's recommended polling, as the service spec states it. */
export const RECOMMENDED_POLLING: RecommendedPolling = readPolling(serviceSpec);
