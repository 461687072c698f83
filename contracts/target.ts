import { SECOND_FAMILY as SECOND_FAMILY_SPEC } from '../src/spec/second-family.ts';

/**
 * What a contract run points at and how far it may go. Built from flags or `VIDEOTASK_*` variables;
 * the API keys live here and nowhere else (reports and messages mask them).
 */
export interface PollSchedule {
  /** First interval, ms (§8: 5 s). */
  readonly initialMs: number;
  /** Growth factor (§8: 1.5). */
  readonly factor: number;
  /** Ceiling, ms (§8: 30 s). */
  readonly maxMs: number;
  /** Total time allowed for a task, ms (§8 asks for one; default 15 min). */
  readonly timeoutMs: number;
  /** §8: at most 60 attempts in the reference loop. */
  readonly maxAttempts: number;
}

export type Tier = 'free' | 'lifecycle';

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
}

export const DOCUMENTED_POLL: PollSchedule = {
  initialMs: 5_000,
  factor: 1.5,
  maxMs: 30_000,
  timeoutMs: 15 * 60_000,
  maxAttempts: 60,
};

/** The second family's model IDs (§1). */
export const SECOND_FAMILY: readonly string[] = SECOND_FAMILY_SPEC.models;
