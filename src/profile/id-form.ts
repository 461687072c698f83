/**
 * The form of an opaque identifier (a task ID, a request ID, an upstream number), learned from values
 * and replayed by generating new ones: literal parts and slots of a character class and length, written
 * `task_{alnum:32}`, `{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}`, `{digit:22}`, `cgt-{digit:14}-{lower:6}`.
 * A form says nothing of the values themselves: a profile keeps forms, never IDs.
 */

/** Character classes, narrowest first; `alnum` is base 62 in the order of the mock's task IDs. */
export const ID_CLASSES = {
  digit: '0123456789',
  hex: '0123456789abcdef',
  HEX: '0123456789ABCDEF',
  lower: '0123456789abcdefghijklmnopqrstuvwxyz',
  upper: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  alnum: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
} as const;
export type IdClass = keyof typeof ID_CLASSES;

export type FormPart =
  | { readonly literal: string }
  | { readonly slot: IdClass; readonly min: number; readonly max: number };

export class IdFormError extends Error {
  override readonly name = 'IdFormError';
}

const SLOT = /\{([A-Za-z0-9]+):(\d+)(?:-(\d+))?\}/g;
const LITERAL = /^[A-Za-z0-9_.:/+=-]*$/;

/** The most slots a form may have: IDs are read against it on every request naming a task. */
export const MAX_FORM_SLOTS = 16;

/**
 * The parts of a form; throws `IdFormError` saying what is wrong. A form must read one way (issue 33
 * item 4: `{alnum:6-256}` six times in a row compiled to a backtracking pattern that froze the mock for
 * 15 s on a 130-character ID): no two slots side by side, and a slot of varying length is followed by
 * the end or by a literal its class cannot hold (`{hex:8-12}-…`, not `{alnum:8-12}x…`). Every form
 * `learn` writes is such a form (runs of letters and digits are always parted by a separator), and
 * `matchesForm` reads an ID against one in a single pass.
 */
export function parseForm(form: string): FormPart[] {
  const parts: FormPart[] = [];
  let at = 0;
  for (const match of form.matchAll(SLOT)) {
    pushLiteral(parts, form.slice(at, match.index));
    const [, name, min, max] = match;
    if (!(name! in ID_CLASSES))
      throw new IdFormError(
        `unknown character class "${name}" (use ${Object.keys(ID_CLASSES).join(', ')})`,
      );
    const low = Number(min);
    const high = max === undefined ? low : Number(max);
    if (low < 1 || high < low || high > 256)
      throw new IdFormError(`a slot's length must be 1–256 and min ≤ max, got {${name}:${min}}`);
    if (parts.at(-1) !== undefined && 'slot' in parts.at(-1)!)
      throw new IdFormError(
        `two slots side by side (…${match[0]}) read more than one way: put a separator between them`,
      );
    parts.push({ slot: name as IdClass, min: low, max: high });
    at = match.index + match[0].length;
  }
  pushLiteral(parts, form.slice(at));
  const slots = parts.filter((p) => 'slot' in p).length;
  if (slots === 0) throw new IdFormError(`"${form}" has no slot such as {alnum:32}`);
  if (slots > MAX_FORM_SLOTS)
    throw new IdFormError(`${slots} slots: a form has at most ${MAX_FORM_SLOTS}`);
  parts.forEach((part, i) => {
    const next = parts[i + 1];
    if ('slot' in part && part.min < part.max && next !== undefined && 'literal' in next)
      if (ID_CLASSES[part.slot].includes(next.literal[0]!))
        throw new IdFormError(
          `a slot of varying length {${part.slot}:${part.min}-${part.max}} followed by "${next.literal}" ` +
            `reads more than one way: follow it by a separator its class cannot hold (- _ . : / + =)`,
        );
  });
  return parts;
}

function pushLiteral(parts: FormPart[], text: string): void {
  if (text === '') return;
  if (!LITERAL.test(text))
    throw new IdFormError(
      `"${text}" is not a literal part of an ID form (letters, digits, _ . : / + = -)`,
    );
  parts.push({ literal: text });
}

export function formatForm(parts: readonly FormPart[]): string {
  return parts
    .map((p) =>
      'literal' in p ? p.literal : `{${p.slot}:${p.min}${p.max === p.min ? '' : `-${p.max}`}}`,
    )
    .join('');
}

/** The narrowest class holding every character of `text`. */
function classOf(text: string): IdClass {
  for (const name of Object.keys(ID_CLASSES) as IdClass[])
    if ([...text].every((c) => ID_CLASSES[name].includes(c))) return name;
  return 'alnum';
}

const WIDER: Readonly<Record<IdClass, readonly IdClass[]>> = {
  digit: ['digit', 'hex', 'HEX', 'lower', 'upper', 'alnum'],
  hex: ['hex', 'lower', 'alnum'],
  HEX: ['HEX', 'upper', 'alnum'],
  lower: ['lower', 'alnum'],
  upper: ['upper', 'alnum'],
  alnum: ['alnum'],
};

/** The narrowest class both fit in. */
function joinClass(a: IdClass, b: IdClass): IdClass {
  return WIDER[a].find((c) => WIDER[b].includes(c)) ?? 'alnum';
}

const RUN = /[0-9A-Za-z]+|[^0-9A-Za-z]/g;

/**
 * Whether a string is an opaque identifier rather than a word, a name or text: 12+ characters of
 * letters, digits and `_ . : -`, with a digit, and a varying part of 8+ characters (or 10+ digits).
 * `video-pro-v1` and `gpt-4o-2024-08-06` are names; `task_…`, UUIDs and `cgt-2026…` are IDs.
 */
export function isIdLike(value: string): boolean {
  if (value.length < 12 || value.length > 256 || !/^[A-Za-z0-9_.:-]+$/.test(value)) return false;
  if (!/\d/.test(value)) return false;
  return (value.match(/[0-9A-Za-z]+/g) ?? []).some(
    (run) => (run.length >= 8 && /\d/.test(run) && /[A-Za-z]/.test(run)) || /^\d{10,}$/.test(run),
  );
}

/** The form of one value: a leading name (`task`, `cgt`) and separators stay literal; runs become slots. */
export function formOf(value: string): string {
  const parts: FormPart[] = [];
  const runs = value.match(RUN) ?? [];
  runs.forEach((run, i) => {
    const alnum = /^[0-9A-Za-z]+$/.test(run);
    const name = /^[A-Za-z]+$/.test(run) && (run.length <= 6 || (i === 0 && run.length <= 12));
    if (!alnum || name) parts.push({ literal: run });
    else parts.push({ slot: classOf(run), min: run.length, max: run.length });
  });
  return formatForm(mergeLiterals(parts));
}

function mergeLiterals(parts: readonly FormPart[]): FormPart[] {
  const merged: FormPart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if ('literal' in part && last !== undefined && 'literal' in last)
      merged[merged.length - 1] = { literal: last.literal + part.literal };
    else merged.push(part);
  }
  return merged;
}

/** A form's parts split so that runs of letters and digits and the separators between them align. */
function tokens(parts: readonly FormPart[]): FormPart[] {
  return parts.flatMap((p): FormPart[] =>
    'slot' in p ? [p] : (p.literal.match(RUN) ?? []).map((literal) => ({ literal })),
  );
}

const isRun = (p: FormPart) => 'slot' in p || /^[0-9A-Za-z]+$/.test(p.literal);

/** A run as a slot: a literal run seen once is one value of a slot (a UUID's `adbd`). */
function asSlot(p: FormPart): Extract<FormPart, { slot: IdClass }> {
  return 'slot' in p
    ? p
    : { slot: classOf(p.literal), min: p.literal.length, max: p.literal.length };
}

/**
 * One form covering both: the same separators; runs that differ become slots wide enough for both
 * (classes joined, lengths widened). Forms of another structure cannot be merged: the first is kept
 * (the deployment changed its IDs; drift reports it).
 */
export function mergeForms(a: string, b: string): string {
  if (a === b) return a;
  const left = tokens(parseForm(a));
  const right = tokens(parseForm(b));
  const aligned =
    left.length === right.length &&
    left.every((p, i) => {
      const q = right[i]!;
      return isRun(p)
        ? isRun(q)
        : 'literal' in q && q.literal === (p as { literal: string }).literal;
    });
  if (!aligned) return a;
  const merged = left.map((p, i): FormPart => {
    const q = right[i]!;
    if ('literal' in p && 'literal' in q && p.literal === q.literal) return p;
    const x = asSlot(p);
    const y = asSlot(q);
    return {
      slot: joinClass(x.slot, y.slot),
      min: Math.min(x.min, y.min),
      max: Math.max(x.max, y.max),
    };
  });
  return formatForm(mergeLiterals(merged));
}

/** The shortest and longest value of a form. */
export function formLengths(parts: readonly FormPart[]): readonly [number, number] {
  let min = 0;
  let max = 0;
  for (const p of parts) {
    min += 'literal' in p ? p.literal.length : p.min;
    max += 'literal' in p ? p.literal.length : p.max;
  }
  return [min, max];
}

/**
 * Whether `text` is a value of the form (`parseForm`'s: one way to read it), in one pass with no
 * backtracking, its length checked first: a slot of varying length takes every character of its class
 * it can, since what follows it never starts with one.
 */
export function matchesForm(parts: readonly FormPart[], text: string): boolean {
  const [min, max] = formLengths(parts);
  if (text.length < min || text.length > max) return false;
  let at = 0;
  for (const p of parts) {
    if ('literal' in p) {
      if (!text.startsWith(p.literal, at)) return false;
      at += p.literal.length;
      continue;
    }
    const chars = ID_CLASSES[p.slot];
    const start = at;
    while (at - start < p.max && at < text.length && chars.includes(text[at]!)) at++;
    if (at - start < p.min) return false;
  }
  return at === text.length;
}

/** A new value of the form, from a source of numbers in [0, 1). */
export function generateId(parts: readonly FormPart[], next: () => number): string {
  return parts
    .map((p) => {
      if ('literal' in p) return p.literal;
      const alphabet = ID_CLASSES[p.slot];
      const length = p.min + Math.floor(next() * (p.max - p.min + 1));
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      return text;
    })
    .join('');
}

/**
 * A bijection between numbers below `capacity` and the form's values of its shortest length (each slot
 * position a digit in its class's base): how a mock carries its own task IDs in a deployment's form.
 */
export class FormCodec {
  readonly #parts: readonly FormPart[];
  readonly #bases: readonly bigint[];
  readonly capacity: bigint;

  constructor(parts: readonly FormPart[]) {
    this.#parts = parts;
    const bases: bigint[] = [];
    for (const p of parts)
      if ('slot' in p)
        for (let i = 0; i < p.min; i++) bases.push(BigInt(ID_CLASSES[p.slot].length));
    this.#bases = bases;
    this.capacity = bases.reduce((a, b) => a * b, 1n);
  }

  encode(value: bigint): string {
    const digits: number[] = [];
    let rest = value;
    for (let i = this.#bases.length - 1; i >= 0; i--) {
      const base = this.#bases[i]!;
      digits[i] = Number(rest % base);
      rest /= base;
    }
    let at = 0;
    return this.#parts
      .map((p) => {
        if ('literal' in p) return p.literal;
        let text = '';
        for (let i = 0; i < p.min; i++) text += ID_CLASSES[p.slot][digits[at++]!];
        return text;
      })
      .join('');
  }

  /** Whether `text` is a value of the form (`matchesForm`). */
  matches(text: string): boolean {
    return matchesForm(this.#parts, text);
  }

  /** The number a value of the form carries; undefined when it is not of the form's shortest length. */
  decode(text: string): bigint | undefined {
    if (!matchesForm(this.#parts, text)) return undefined;
    let value = 0n;
    let at = 0;
    let offset = 0;
    for (const p of this.#parts) {
      if ('literal' in p) {
        offset += p.literal.length;
        continue;
      }
      const run = text.slice(offset, offset + p.min);
      const next = text[offset + p.min];
      if (next !== undefined && ID_CLASSES[p.slot].includes(next)) return undefined;
      for (const c of run)
        value = value * this.#bases[at++]! + BigInt(ID_CLASSES[p.slot].indexOf(c));
      offset += p.min;
    }
    return offset === text.length ? value : undefined;
  }
}
