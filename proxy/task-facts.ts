import type { VideoStatus } from '../src/spec/index.ts';
import { UseOrder } from '../src/use-order.ts';
import { FAULT_NAMES, type FaultName } from './faults.ts';

/** What the proxy remembers of a task between its requests: its state, and its faults. */
export interface TaskFacts {
  /** The state the deployment last showed (never one the proxy made up). */
  status: VideoStatus | undefined;
  /** The faults its submission's prompt asked for (`faultBit`). */
  tags: number;
  /** Its last status query was answered 503 by the proxy (a temporary 5xx is never twice in a row). */
  last5xx: boolean;
  /** Until when (wall ms) its queries answer `unknown`; 0 not yet, -1 done (once per task). */
  unknownUntil: number;
}

const BITS = new Map(FAULT_NAMES.map((f, i) => [f, 1 << i]));
export const faultBit = (fault: FaultName): number => BITS.get(fault)!;

/**
 * The tasks' facts, at most `max` (the least recently used forgotten first: a forgotten task is
 * judged afresh by the client rules, which ask its state, and gets no fault by tag).
 */
export class TaskFactsTable {
  readonly #facts = new UseOrder<string, TaskFacts>();
  forgotten = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.#facts.size;
  }

  get(id: string): TaskFacts | undefined {
    return this.#facts.get(id);
  }

  /** The task's facts, made (and moved to the back of the forgetting order) when asked. */
  touch(id: string): TaskFacts {
    let facts = this.#facts.get(id);
    if (facts === undefined) {
      facts = { status: undefined, tags: 0, last5xx: false, unknownUntil: 0 };
      if (this.#facts.size >= this.max) {
        this.#facts.delete(this.#facts.oldest()![0]);
        this.forgotten++;
      }
    }
    this.#facts.use(id, facts);
    return facts;
  }
}

/**
 * Bodies seen with a fault's tag, remembered so that a tag faults a submission once: the client's
 * retry of it (same body) goes through, as a fault that passes would. At most `max`, oldest forgotten.
 */
export class SeenOnce {
  readonly #seen = new Set<string>();

  constructor(readonly max: number) {}

  /** True the first time `key` is given (within the last `max`). */
  first(key: string): boolean {
    if (this.#seen.has(key)) return false;
    if (this.#seen.size >= this.max) this.#seen.delete(this.#seen.values().next().value!);
    this.#seen.add(key);
    return true;
  }
}
