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
 * the target at once; one that went on to other requests without it did not follow. Judged at the
 * caller's first request that comes a while after the redirect (`settleCaller`: a follow-up may still
 * be on its way while a concurrent request of the caller arrives), else when the report is read
 * (`settle`). At most `max` wait; the oldest is dropped first.
 */
export class PendingRedirects {
  readonly #pending = new Map<string, Pending>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  sent(caller: CallerTrack, o: Observation): void {
    if (o.location === undefined) return;
    if (this.#pending.has(o.location)) this.#drop(o.location);
    if (this.#pending.size >= this.#max) this.#drop(this.#pending.keys().next().value!);
    caller.pendingRedirects++;
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
    if (pending !== undefined) this.#drop(location);
    return pending?.caller;
  }

  /**
   * Judges the caller's redirects that its request `o` comes after by more than `windowMs` on the
   * mock's clock (a manual clock's window is 0: once the clock moved): the request that shows it went
   * on without following. Called only for a caller with redirects pending.
   */
  settleCaller(j: Judging, caller: CallerTrack, o: Observation, windowMs: number): void {
    for (const [location, p] of this.#pending)
      if (p.caller === caller && p.order < o.order && o.at - p.redirect.at > windowMs)
        this.#judge(j, location, p);
  }

  /** Judges every redirect whose caller has since made another request. */
  settle(j: Judging): void {
    for (const [location, p] of this.#pending)
      if (p.caller.latest > p.order) this.#judge(j, location, p);
  }

  clear(): void {
    for (const p of this.#pending.values()) p.caller.pendingRedirects--;
    this.#pending.clear();
  }

  #drop(location: string): void {
    const p = this.#pending.get(location)!;
    p.caller.pendingRedirects--;
    this.#pending.delete(location);
  }

  #judge(j: Judging, location: string, p: Pending): void {
    this.#drop(location);
    const task = p.taskId === undefined ? undefined : p.caller.task(p.taskId);
    j.breach(RULE['follow-content-redirects'], p.caller, task, p.redirect.at, () => ({
      message:
        `was redirected (${p.redirect.status}) to the temporary address of ` +
        `${p.taskId ?? 'its task'} and never asked for it, though it made other requests after`,
      requests: [p.redirect],
    }));
  }
}
