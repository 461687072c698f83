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
 * The verdicts so far. Their holders (a caller, a task) keep one entry per rule and count the next
 * breaches on it (`again`), so a client that breaks a rule on every request costs one entry. At most
 * `max` entries; past it, breaches are only counted per rule.
 */
export class VerdictBook {
  readonly #entries: VerdictEntry[] = [];
  readonly #notListed = new Map<string, number>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** A new entry, from what `draft` says happened; `undefined` (only counted) once the book is full. */
  add(
    rule: ClientRule,
    caller: string,
    taskId: string | undefined,
    at: number,
    draft: () => VerdictDraft,
  ): VerdictEntry | undefined {
    if (this.#entries.length >= this.#max) {
      this.#notListed.set(rule.id, (this.#notListed.get(rule.id) ?? 0) + 1);
      return undefined;
    }
    const { message, requests } = draft();
    const entry = { rule, caller, taskId, message, requests, count: 1, firstAt: at, lastAt: at };
    this.#entries.push(entry);
    return entry;
  }

  entries(): readonly VerdictEntry[] {
    return this.#entries;
  }

  /** Breaches not listed because the book was full, per rule. */
  notListed(): ReadonlyMap<string, number> {
    return this.#notListed;
  }

  clear(): void {
    this.#entries.length = 0;
    this.#notListed.clear();
  }
}

/** One more breach of a known entry. */
export function again(entry: VerdictEntry, at: number): VerdictEntry {
  entry.count++;
  if (at > entry.lastAt) entry.lastAt = at;
  return entry;
}
