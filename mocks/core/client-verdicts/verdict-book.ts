import type { ClientRule } from '../../../src/spec/client-rules.ts';

/** A request a verdict was judged on, as a client team reads it: never a header, body or query. */
export interface Evidence {
  readonly method: string;
  readonly path: string;
  /** Mock time (ms). */
  readonly at: number;
  /** The status the mock answered (for a lost answer, the one that never arrived). */
  readonly status: number;
  /** The answer was lost on purpose (scenario `lost-answer`): the client saw none. */
  readonly lost?: boolean | undefined;
}

/** One rule broken by one caller (about one task, when the rule is about tasks), however often. */
export interface VerdictEntry {
  readonly rule: ClientRule;
  /** The caller as observed (`Observation.caller`): reports show it masked. */
  readonly caller: string;
  readonly taskId: string | undefined;
  /** What happened, the first time. */
  readonly message: string;
  /** The requests of the first time. */
  readonly requests: readonly Evidence[];
  /** Times the rule was broken. */
  count: number;
  /** Mock time of the first and the latest time. */
  readonly firstAt: number;
  lastAt: number;
}

export interface VerdictDraft {
  readonly message: string;
  readonly requests: readonly Evidence[];
}

/**
 * The verdicts so far, one entry per rule, caller and task, counted: a client that breaks a rule on
 * every request costs one entry. At most `max` entries; past it, breaches are only counted per rule.
 */
export class VerdictBook {
  readonly #entries = new Map<string, VerdictEntry>();
  readonly #notListed = new Map<string, number>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Counts one breach; `draft` says what happened when it is the first of its entry. Returns the entry
   * (callers may keep it to count the next breach with `again`), or `undefined` once the book is full.
   */
  add(
    rule: ClientRule,
    caller: string,
    taskId: string | undefined,
    at: number,
    draft: () => VerdictDraft,
  ): VerdictEntry | undefined {
    const key = `${rule.id}\u0000${caller}\u0000${taskId ?? ''}`;
    const known = this.#entries.get(key);
    if (known !== undefined) return again(known, at);
    if (this.#entries.size >= this.#max) {
      this.#notListed.set(rule.id, (this.#notListed.get(rule.id) ?? 0) + 1);
      return undefined;
    }
    const { message, requests } = draft();
    const entry = { rule, caller, taskId, message, requests, count: 1, firstAt: at, lastAt: at };
    this.#entries.set(key, entry);
    return entry;
  }

  entries(): IterableIterator<VerdictEntry> {
    return this.#entries.values();
  }

  /** Breaches not listed because the book was full, per rule. */
  notListed(): ReadonlyMap<string, number> {
    return this.#notListed;
  }

  clear(): void {
    this.#entries.clear();
    this.#notListed.clear();
  }
}

/** One more breach of a known entry. */
export function again(entry: VerdictEntry, at: number): VerdictEntry {
  entry.count++;
  if (at > entry.lastAt) entry.lastAt = at;
  return entry;
}
