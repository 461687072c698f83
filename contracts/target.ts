import type { PollSchedule } from '../src/client/poll-schedule.ts';
import { RECOMMENDED_POLLING } from '../src/spec/polling.ts';
import { SECOND_FAMILY as SECOND_FAMILY_SPEC } from '../src/spec/second-family.ts';

/** §8's polling numbers: the client's type (src/client owns polling, §8). */
export type { PollSchedule };

export type Tier = 'free' | 'lifecycle';

/**
 * What a contract run points at and how far it may go. Built from flags or `VIDEOTASK_*` variables;
 * the API keys live here and nowhere else (reports and messages mask them).
 */
export interface ContractTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** A second user's key, for the ownership checks (§5). Without it those checks are skipped. */
  readonly otherApiKey?: string | undefined;
  /** The model the lifecycle tasks use. */
  readonly model: string;
  /** `free` creates no task; `lifecycle` creates at most `budget`. */
  readonly tier: Tier;
  readonly budget: number;
  /** Assumption-based checks fail instead of warn. */
  readonly strict: boolean;
  readonly poll: PollSchedule;
  /** Per-request time limit, ms. */
  readonly requestTimeoutMs: number;
  /**
   * One extra budgeted task the operator knows will fail (a model that fails, a prompt it refuses to
   * render), so the `failed` column is observed on a real deployment (§7). Either may be left out:
   * the other comes from `model` and the suite's own prompt.
   */
  readonly failing?: FailingTask | undefined;
  /** The second family's native path (§4.5): observed only when both are named. */
  readonly family?: FamilyTarget | undefined;
  /**
   * A model this key may not use (§5: the token's permissions or group do not allow it): submitted on
   * both documented paths, it must be refused with a 4xx. A model the key's token itself may not use
   * is best (a model outside the key's group is answered 503 by the gateway, which leaves open
   * whether a task was created).
   */
  readonly forbiddenModel?: string | undefined;
}

export interface FailingTask {
  readonly model?: string | undefined;
  readonly prompt?: string | undefined;
}

export interface FamilyTarget {
  /** A second-family model ID the key may use (§1: `alt-video-v2`, …). */
  readonly model: string;
  /** The name under which the task plugin declares `/{plugin}/api/v3/contents/generations/tasks`. */
  readonly plugin: string;
}

/**
 * The tasks a lifecycle run creates when the budget allows: one per submit path, one expected to fail,
 * one on the native path, and one expected to fail there (a failing prompt and a family both named).
 */
export function plannedTasks(target: Pick<ContractTarget, 'failing' | 'family'>): number {
  const failing = target.failing === undefined ? 0 : 1;
  const family = target.family === undefined ? 0 : 1;
  const nativeFailing = family === 1 && target.failing?.prompt !== undefined ? 1 : 0;
  return 2 + failing + family + nativeFailing;
}

/**
 * Why a target cannot be checked as given, whatever the deployment answers, or undefined: the same key
 * as both users would read every ownership cell (§5) as a breach of the document, and a forbidden model
 * that the run also uses would be submitted both to be served and to be refused.
 */
export function targetUsageProblem(
  target: Pick<ContractTarget, 'apiKey' | 'otherApiKey'> &
    Partial<Pick<ContractTarget, 'model' | 'failing' | 'family' | 'forbiddenModel'>>,
): string | undefined {
  const forbidden = target.forbiddenModel;
  const used = [
    ['--model', target.model],
    ['--failing-model', target.failing?.model],
    ['--family-model', target.family?.model],
  ].find(([, model]) => forbidden !== undefined && model === forbidden);
  if (used !== undefined)
    return (
      `--forbidden-model ${forbidden} is also ${used[0]}: name a model this key may not use (§5), ` +
      'one the run does not submit to be served'
    );
  if (target.otherApiKey === undefined || target.otherApiKey.trim() !== target.apiKey.trim())
    return undefined;
  return (
    "--other-api-key is the same key as --api-key: the ownership checks (§5) need a second user's " +
    'key (a key of another user, not the same one twice); pass one, or leave --other-api-key out'
  );
}

/**
 * A target as a name shows it: its host and path prefix (`staging.example.com/api`), never its scheme
 * or credentials; the name of a learned profile by default (two prefixes of one host are two names).
 */
export function targetName(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** §8's recommended schedule, read from the spec's `x-polling`; the total timeout is the suite's own. */
export const DOCUMENTED_POLL: PollSchedule = {
  initialIntervalMs: RECOMMENDED_POLLING.initialIntervalMs,
  factor: RECOMMENDED_POLLING.factor,
  maxIntervalMs: RECOMMENDED_POLLING.maxIntervalMs,
  timeoutMs: 15 * 60_000,
  maxAttempts: RECOMMENDED_POLLING.maxAttempts,
};

/** The second family's model IDs (§1). */
export const SECOND_FAMILY: readonly string[] = SECOND_FAMILY_SPEC.models;
