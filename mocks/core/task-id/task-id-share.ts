import type { Random } from '../plan/random.ts';
import { TASK_ID_LAYOUT } from './task-id-layout.ts';

/**
 * The part of the plan-seed space (the ID's `draw` field, decisions/010) one process mints from: the
 * draws ≡ `index` (mod `of`). Processes of one deployment that mint at the same time take distinct
 * indexes of one `of` — the workers of `--workers N` (and their primary), replicas given `--replica
 * K/N` — so their tasks differ in `draw`, and two payloads that differ never make the same ID: IDs
 * are unique across them by construction, with no message between them.
 */
export interface TaskIdShare {
  readonly index: number;
  readonly of: number;
}

/** Every draw: a process alone. */
export const WHOLE_SHARE: TaskIdShare = { index: 0, of: 1 };

/** Plan seeds: the values of the ID's `draw` field. */
export const DRAWS = 2 ** TASK_ID_LAYOUT.find((f) => f.field === 'draw')!.bits;

/** Most shares the draws are cut into: each keeps at least 1,024 (`--replica 256` × 257 processes: 2,040). */
export const MAX_SHARES = 2 ** 17;

/** Why `share` cannot be used, or `undefined`. */
export function shareProblem(share: TaskIdShare): string | undefined {
  const { index, of } = share;
  if (!(Number.isInteger(of) && of >= 1 && of <= MAX_SHARES))
    return `of must be a whole number from 1 to ${MAX_SHARES}, got ${String(of)}`;
  if (!(Number.isInteger(index) && index >= 0 && index < of))
    return `index must be a whole number from 0 to ${of - 1}, got ${String(index)}`;
  return undefined;
}

/**
 * Share `inner` of share `outer` (a worker's share of its replica's): the draws of distinct inner
 * indexes are distinct, and all are in `outer`, so they differ from every other outer share's too.
 */
export function shareWithin(outer: TaskIdShare, inner: TaskIdShare): TaskIdShare {
  return { index: outer.index + outer.of * inner.index, of: outer.of * inner.of };
}

/** Whether `draw` belongs to `share`. */
export function inShare(draw: number, share: TaskIdShare): boolean {
  return draw % share.of === share.index;
}

/** A draw of `share`, uniform over it: `index + of × j`. */
export function drawIn(share: TaskIdShare, random: Random): number {
  const count = Math.floor((DRAWS - 1 - share.index) / share.of) + 1;
  return share.index + share.of * random.int(0, count - 1);
}
