import { evidenceOf, type CallerTrack } from './caller-track.ts';
import type { Judging } from './judging.ts';
import type { Observation } from './observation.ts';
import { RULE } from './rule-table.ts';
import type { Evidence } from './verdict-book.ts';

interface Pending {
  readonly caller: CallerTrack;
  readonly taskId: string | undefined;
  readonly order: number;
  readonly redirect: Evidence;
}

/**
 * §4.4 "Clients follow redirects": the content redirects answered and not yet followed, by target
 * (path and query: each target is signed, so it names one redirect). A client that follows asks for
 * the target at once; one that went on to other requests without it did not follow. Judged when the
 * report is read, never sooner: a follow-up may still be on its way while the caller's other requests
 * arrive. At most `max` wait; the oldest is dropped first.
 */
export class PendingRedirects {
  readonly #pending = new Map<string, Pending>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  sent(caller: CallerTrack, o: Observation): void {
    if (o.location === undefined) return;
    if (this.#pending.size >= this.#max) this.#pending.delete(this.#pending.keys().next().value!);
    this.#pending.set(o.location, {
      caller,
      taskId: o.taskId,
      order: o.order,
      redirect: evidenceOf(o),
    });
  }

  /** An artifact request: the caller whose redirect it follows, if any. */
  followed(location: string | undefined): CallerTrack | undefined {
    if (location === undefined) return undefined;
    const pending = this.#pending.get(location);
    this.#pending.delete(location);
    return pending?.caller;
  }

  /** Judges every redirect whose caller has since made another request. */
  settle(j: Judging): void {
    for (const [location, p] of this.#pending) {
      if (p.caller.latest <= p.order) continue;
      this.#pending.delete(location);
      const task = p.taskId === undefined ? undefined : p.caller.task(p.taskId);
      if (!j.repeat(RULE['follow-content-redirects'], p.caller, task, p.redirect.at))
        j.breach(RULE['follow-content-redirects'], p.caller, task, p.redirect.at, () => ({
          message:
            `was redirected (${p.redirect.status}) to the temporary address of ` +
            `${p.taskId ?? 'its task'} and never asked for it, though it made other requests after`,
          requests: [p.redirect],
        }));
    }
  }

  clear(): void {
    this.#pending.clear();
  }
}
