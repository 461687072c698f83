import type { MintedAt } from '../core/persistence.ts';
import { inShare, type TaskIdShare } from '../core/task-id-share.ts';

/**
 * The task IDs a cluster's workers made at the latest instant of its clock, with their plan seeds
 * (decisions/016). A worker that starts — a replacement, or every worker after a restart on a state
 * file — mints in a share another worker already used, and the clock may still show that instant
 * (a manual clock does until an advance): it starts knowing the IDs it could draw again. An ID of an
 * earlier instant can never be drawn again (the clock only moves forward), nor one of an earlier
 * reset generation (its tag differs), so only the latest instant's are kept.
 */
export class LatestTaskIds {
  #generation = 0;
  #at = -Infinity;
  #ids: string[] = [];
  #draws: number[] = [];

  /** A task created at `generation`; one of an instant before the latest is dropped. */
  note(id: string, minted: MintedAt, generation: number): void {
    if (generation !== this.#generation || minted.createdAt > this.#at) {
      this.#generation = generation;
      this.#at = minted.createdAt;
      this.#ids = [];
      this.#draws = [];
    } else if (minted.createdAt < this.#at) return;
    this.#ids.push(id);
    this.#draws.push(minted.draw);
  }

  /** The IDs a process minting in `share` from `now` on, at `generation`, could draw again. */
  takenIn(share: TaskIdShare, now: number, generation: number): string[] {
    if (generation !== this.#generation || this.#at < now) return [];
    return this.#ids.filter((_, i) => inShare(this.#draws[i]!, share));
  }
}

/**
 * The latest IDs among `ids` (a restored listing), read back from the IDs themselves (`mintedAt`: a
 * decryption each, no tag check): every one, since the listing's order is the order in which the
 * primary heard of them, not quite the order of their instants.
 */
export function latestOf(
  ids: Iterable<string>,
  mintedAt: (id: string) => MintedAt | undefined,
  generation: number,
): LatestTaskIds {
  const latest = new LatestTaskIds();
  for (const id of ids) {
    const minted = mintedAt(id);
    if (minted !== undefined) latest.note(id, minted, generation);
  }
  return latest;
}
