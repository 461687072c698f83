// What both fuzz layers share: the seed, the per-request time limit, failure and request texts.
import { text, type FuzzStats } from './oracle.ts';
import type { ResolvedCall } from './world.ts';
/** The seed of the bounded runs unless `FUZZ_SEED` says otherwise. */
export const DEFAULT_FUZZ_SEED = 20261122;
/** No single request may take longer (a hang is a failure, not a slow test). */
export const REQUEST_TIMEOUT_MS = 5000;
/**
 * A bounded fuzz suite's vitest time limit. Its bound is its run count, not a time: on 2 shared cores
 * under other work the same runs take several times as long (20 s, vitest's limit here, was hit).
 */
export const FUZZ_TIMEOUT_MS = 180_000;
/** How long a request asking for `lost-answer:S` is given: a held answer is not waited out. */

export function fuzzSeed(): number {
  const raw = process.env['FUZZ_SEED'];
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got "${raw}"`);
  return seed;
}

export function failure(layer: string, seed: number, stats: FuzzStats, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(
    `fuzz ${layer} failed (FUZZ_SEED=${seed}; cases so far: core ` +
      `${stats.cases.core}, socket ${stats.cases.socket}, isolation ` +
      `${stats.cases.isolation}; replay with FUZZ_SEED=${seed})\n${message}`,
  );
}

export function show(call: ResolvedCall, extra = ''): string {
  const headers = call.headers.map(([n, v]) => `${n}: ${text(v, 80)}`).join(' | ');
  const query = call.query === '' ? '' : `?${text(call.query, 120)}`;
  const body = text(call.body, 200);
  return `${call.method} ${text(call.path, 200)}${query} [${headers}] body=${body}${extra}`;
}

/** Whether a promise settles within `ms`. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
