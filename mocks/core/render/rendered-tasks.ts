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
 * The last body of each task is kept as the sequence of keys and leaves `JSON.stringify` writes
 * (`flatten`), which a new body is compared with member by member (`sameAt`), reading neither body
 * by a computed key: such reads were most of the comparison's cost.
 *
 * What is kept is a copy (the keys and leaves), never the body: whoever reads the route's rendered
 * object later (the learned replay) cannot change what a later body is compared with.
 *
 * Bounded: the tasks answered last, at most `capacity` (a task's entry is a few hundred bytes), the
 * oldest forgotten first.
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
    if (kept !== undefined && sameAt(kept.flat, 0, body) === kept.flat.length) return kept.text;
    const text = JSON.stringify(body);
    if (kept === undefined && this.#kept.size >= this.#capacity) this.#forgetOldest();
    this.#kept.set(taskId, { flat: flatten(body, []), text });
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
  /** The body the text was made of, flattened. */
  readonly flat: readonly unknown[];
  readonly text: string;
}

// A flattened value: a leaf (string, number, boolean, null) as itself; a plain object as OBJECT, each
// member's key then its value flattened, END; an array as ARRAY, its items flattened, END. Anything else
// (a class instance, a Date and its toJSON) is OPAQUE, which no value is the same as.
const OBJECT = Symbol('{');
const ARRAY = Symbol('[');
const END = Symbol('end');
const OPAQUE = Symbol('opaque');

/** `value` flattened onto the end of `out` (in the order `JSON.stringify` writes it); `out`. */
function flatten(value: unknown, out: unknown[]): unknown[] {
  if (typeof value !== 'object' || value === null) out.push(value);
  else if (!isPlain(value)) out.push(OPAQUE);
  else if (Array.isArray(value)) {
    out.push(ARRAY);
    for (const item of value as unknown[]) flatten(item, out);
    out.push(END);
  } else {
    out.push(OBJECT);
    for (const [key, member] of Object.entries(value)) {
      out.push(key);
      flatten(member, out);
    }
    out.push(END);
  }
  return out;
}

/**
 * Where `value` ends in `flat` when it is the same JSON value as the one flattened from `at` on, or -1:
 * whether `JSON.stringify` makes the same text of both. Plain objects with the same keys in the same
 * order, arrays of the same length, equal strings, numbers and booleans; anything else (a class
 * instance, a `toJSON`, an `undefined` member) counts as different: a miss costs one stringify.
 *
 * An object's members are walked with `for…in`, which V8 runs from the object's own cached key list,
 * reading each member without a keyed lookup and allocating nothing; a key it finds on a plain object's
 * prototype (one someone added to `Object.prototype`) is not one flattened: a miss.
 */
function sameAt(flat: readonly unknown[], at: number, value: unknown): number {
  if (typeof value !== 'object' || value === null) return flat[at] === value ? at + 1 : -1;
  if (!isPlain(value)) return -1;
  let next = at + 1;
  if (Array.isArray(value)) {
    if (flat[at] !== ARRAY) return -1;
    for (const item of value as unknown[]) {
      next = sameAt(flat, next, item);
      if (next < 0) return -1;
    }
  } else {
    if (flat[at] !== OBJECT) return -1;
    for (const key in value) {
      if (flat[next] !== key) return -1;
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) return -1;
      next = sameAt(flat, next + 1, member);
      if (next < 0) return -1;
    }
  }
  return flat[next] === END ? next + 1 : -1;
}

/** Whether `JSON.stringify` makes the same text of both (`sameAt` of `a` flattened). */
export function sameJson(a: unknown, b: unknown): boolean {
  const flat = flatten(a, []);
  return sameAt(flat, 0, b) === flat.length;
}

/** A plain object or array: what `JSON.stringify` writes member by member, with no `toJSON`. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}
