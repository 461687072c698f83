/**
 * The JSON text of each task's last status answer, kept while the answer stays the same (issue 23).
 *
 * A client polls a task many times while it waits in line or runs, and every poll of an unchanged task
 * renders the same body; `JSON.stringify` was the status query's largest single cost (about a third of
 * `service.handle` in-process, more under load, where its text is also garbage to collect). The route
 * still renders the body (cheap, and what the learned replay reads); only its text is reused, and only
 * when the new body is the same JSON value as the one the text was made from: the same keys in the same
 * order and equal leaves. So the text is always the new body's own, whatever made it (a profile's habits,
 * a progress step, a result URL with another origin): a different body is a miss, never a wrong answer.
 *
 * Bounded: the tasks answered last, at most `capacity` (a task's entry is a few hundred bytes), the
 * oldest forgotten first. Bodies it keeps are frozen: whoever reads an answer's rendered object (the
 * learned replay) must copy it to change it, or the kept value would no longer match its text.
 */
export class RenderedTasks {
  readonly #kept = new Map<string, Rendered>();
  readonly #capacity: number;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  /** `body` as JSON text: task `taskId`'s last text when `body` is the same value as its last body. */
  text(taskId: string, body: object): string {
    const kept = this.#kept.get(taskId);
    if (kept !== undefined && sameJson(kept.body, body)) return kept.text;
    const text = JSON.stringify(body);
    if (kept === undefined && this.#kept.size >= this.#capacity) this.#forgetOldest();
    this.#kept.set(taskId, { body: deepFreeze(body), text });
    return text;
  }

  /** How many tasks' texts it keeps. */
  get size(): number {
    return this.#kept.size;
  }

  clear(): void {
    this.#kept.clear();
  }

  #forgetOldest(): void {
    for (const oldest of this.#kept.keys()) {
      this.#kept.delete(oldest);
      return;
    }
  }
}

/** At most this many tasks' texts, a few MiB in all: more than the tasks a busy test polls at once. */
export const DEFAULT_CAPACITY = 16_384;

interface Rendered {
  readonly body: object;
  readonly text: string;
}

/**
 * Whether `JSON.stringify` makes the same text of both: plain objects with the same keys in the same
 * order, arrays of the same length, equal strings, numbers and booleans. Anything else (a class
 * instance, a `toJSON`, an `undefined` member) counts as different: a miss costs one stringify.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'object' || a === null || isPlain(a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameItems(a, b);
  return !Array.isArray(b) && isPlain(a) && isPlain(b) && sameMembers(a, b);
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
  return true;
}

function sameMembers(a: object, b: object): boolean {
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== others[i]) return false;
    const value = (a as Record<string, unknown>)[key];
    if (value === undefined || !sameJson(value, (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** A plain object or array: what `JSON.stringify` writes member by member, with no `toJSON`. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

function deepFreeze<T extends object>(value: T): T {
  Object.freeze(value);
  for (const member of Object.values(value))
    if (typeof member === 'object' && member !== null && !Object.isFrozen(member))
      deepFreeze(member as object);
  return value;
}
