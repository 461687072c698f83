import type { MintedAt } from '../../core/task/task-record.ts';
import { inShare, type TaskIdShare } from '../../core/task-id/task-id-share.ts';

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
 * IDs read back from the end of a listing before giving up on finding more of the latest instant: the
 * listing is in the order the primary heard of them, which departs from the order of their instants
 * only by the reports in flight between workers and primary around a clock advance.
 */
export const RESTORE_WINDOW = 10_000;

/**
 * The IDs of a restored listing made at `now` or later (the instant a restarted clock resumes at, at
 * or after every one made), read back from the IDs themselves (`mintedAt`: a decryption each, no tag
 * check) from the end of the listing until `RESTORE_WINDOW` in a row are of earlier instants.
 */
export function latestOf(
  ids: readonly string[],
  mintedAt: (id: string) => MintedAt | undefined,
  now: number,
  generation: number,
): LatestTaskIds {
  const found: [string, MintedAt][] = [];
  for (let i = ids.length - 1, earlier = 0; i >= 0 && earlier < RESTORE_WINDOW; i--) {
    const minted = mintedAt(ids[i]!);
    if (minted === undefined || minted.createdAt < now) earlier++;
    else {
      earlier = 0;
      found.push([ids[i]!, minted]);
    }
  }
  const latest = new LatestTaskIds();
  for (const [id, minted] of found.reverse()) latest.note(id, minted, generation);
  return latest;
}
