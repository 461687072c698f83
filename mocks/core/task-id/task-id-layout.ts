/**
 * The facts a task ID carries, and where each sits in its 124-bit payload
 * ([decisions/010](../../decisions/010-task-ids-carry-their-plan.md) has the table with ranges and what
 * happens outside them). Everything here is a whole number; the meaning of each is `task-blueprint.ts`'s.
 */
export interface TaskIdFields {
  /** Simulated ms since the epoch, within the clock's bound (±8.64e15, the Date range). */
  readonly createdAt: number;
  /** The plan's random draw: seeds the source its queue and run times are drawn from. */
  readonly draw: number;
  /** Index in `BUILT_IN_MODELS` (append only). */
  readonly model: number;
  /** Whole seconds charged, when they fit; otherwise the extras say. */
  readonly seconds: number;
  /** Scenario code (`scenario-codes.ts`). */
  readonly scenario: number;
  /** The scenario's argument, as its code encodes it. */
  readonly arg: number;
  /** Index in `PROFILE_ORDER`: the profile at submission (its unknown-first phase). */
  readonly profile: number;
  /** What does not fit is in the shared state's extras under the task's ID. */
  readonly extras: boolean;
}

/** The clock's bound, ms either side of the epoch: the Date range (ECMA-262 §21.4.1.1). */
export const TIME_BOUND_MS = 8.64e15;

/** Payload fields: the ID's facts, a reserved bit, and `createdAt` as sign and magnitude (< 2^53: exact). */
type FieldName = keyof TaskIdFields | 'reserved' | 'beforeEpoch';

/** Most significant first. 124 bits: with the 64-bit tag, 188 of the 190.5 bits 32 base-62 digits hold. */
export const TASK_ID_LAYOUT: readonly { readonly field: FieldName; readonly bits: number }[] = [
  { field: 'reserved', bits: 1 },
  { field: 'extras', bits: 1 },
  { field: 'profile', bits: 1 },
  { field: 'scenario', bits: 4 },
  { field: 'model', bits: 4 },
  { field: 'seconds', bits: 12 },
  { field: 'arg', bits: 20 },
  { field: 'draw', bits: 27 },
  { field: 'beforeEpoch', bits: 1 },
  { field: 'createdAt', bits: 53 },
];

/** Bytes of the payload: 128 bits, the first 4 always zero. */
export const PAYLOAD_BYTES = 16;
const FIRST_BIT = 4;

/** Whether `value` can be stored in `field`. */
export function fits(field: keyof TaskIdFields, value: number): boolean {
  const bits = TASK_ID_LAYOUT.find((f) => f.field === field)!.bits;
  return Number.isInteger(value) && value >= 0 && value < 2 ** bits;
}

function stored(fields: TaskIdFields, field: FieldName): number {
  if (field === 'reserved') return 0;
  if (field === 'extras') return fields.extras ? 1 : 0;
  if (field === 'beforeEpoch') return fields.createdAt < 0 ? 1 : 0;
  if (field === 'createdAt') return Math.abs(fields.createdAt);
  return fields[field];
}

/** The payload of `fields`. Throws when a value does not fit (a bug: callers check with `fits`). */
export function packFields(fields: TaskIdFields): Uint8Array {
  if (!(Math.abs(fields.createdAt) <= TIME_BOUND_MS))
    throw new RangeError(`task ID field createdAt cannot hold ${fields.createdAt}`);
  const bytes = new Uint8Array(PAYLOAD_BYTES);
  let position = FIRST_BIT;
  for (const { field, bits } of TASK_ID_LAYOUT) {
    const value = stored(fields, field);
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** bits)
      throw new RangeError(`task ID field ${field} cannot hold ${value}`);
    // In pieces of at most 24 bits, so that each is a small integer the bit operators handle.
    const high = Math.floor(value / CHUNK);
    if (bits > 24) position = writeBits(bytes, position, high, bits - 24);
    position = writeBits(bytes, position, value - high * CHUNK, Math.min(bits, 24));
  }
  return bytes;
}

const CHUNK = 2 ** 24;

function writeBits(bytes: Uint8Array, position: number, value: number, bits: number): number {
  for (let bit = bits - 1; bit >= 0; bit--, position++)
    if (((value >>> bit) & 1) === 1) bytes[position >> 3]! |= 0x80 >> (position & 7);
  return position;
}

function readBits(bytes: Uint8Array, position: number, bits: number): number {
  let value = 0;
  for (let i = 0; i < bits; i++, position++)
    value = (value << 1) | ((bytes[position >> 3]! >> (7 - (position & 7))) & 1);
  return value;
}

/** The fields of a payload, or `undefined` when its reserved bits are set. */
export function unpackFields(bytes: Uint8Array): TaskIdFields | undefined {
  if ((bytes[0]! & 0xf0) !== 0) return undefined;
  const values: Partial<Record<FieldName, number>> = {};
  let position = FIRST_BIT;
  for (const { field, bits } of TASK_ID_LAYOUT) {
    const high = bits > 24 ? readBits(bytes, position, bits - 24) : 0;
    position += Math.max(0, bits - 24);
    values[field] = high * CHUNK + readBits(bytes, position, Math.min(bits, 24));
    position += Math.min(bits, 24);
  }
  const magnitude = values.createdAt!;
  const canonical = values.beforeEpoch === 0 || magnitude > 0;
  if (values.reserved !== 0 || !canonical || magnitude > TIME_BOUND_MS) return undefined;
  const createdAt = values.beforeEpoch === 1 ? -magnitude : magnitude;
  return {
    createdAt,
    draw: values.draw!,
    model: values.model!,
    seconds: values.seconds!,
    scenario: values.scenario!,
    arg: values.arg!,
    profile: values.profile!,
    extras: values.extras === 1,
  };
}
