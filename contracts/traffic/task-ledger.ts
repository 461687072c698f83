import type { Exchange } from '../http-recorder.ts';
import { UseOrder } from '../../src/use-order.ts';
import type { Pass } from './bounded-judging.ts';
import type { TaskState } from '../matrix/index.ts';
import type { Poll } from '../checks/sequence.ts';
import type { VideoView } from '../checks/task-object.ts';

/** One task as the traffic showed it: who owns it, what it was asked for, what it last showed. */
export interface TrafficTask {
  readonly id: string;
  /** The key of the caller that created it (its submission passed) or first read it (it did not). */
  readonly owner: string;
  /** Whether its submission passed through, so its owner and model are known for sure. */
  readonly submitted: boolean;
  /** The model it was submitted with (or first shown with). */
  readonly model: string | undefined;
  /** The state its owner was last shown, on any form. */
  state: TaskState | undefined;
  /** Its last OpenAI-form look, for the sequence rules, and the progress before it. */
  lastPoll: Poll | undefined;
  lastProgress: unknown;
  /** Its last OpenAI-form answer, when (ms), and by whom: the wrapper read right after it is compared. */
  lastVideo: { readonly view: VideoView; at: number; readonly key: string } | undefined;
  /**
   * Content the owner was served while the task's last look showed it unfinished: judged as served
   * before completion (§3 rule 2) once its next look shows the same state, dropped if it moved on.
   */
  pendingContent: { readonly exchange: Exchange; readonly state: TaskState } | undefined;
  /**
   * Its owner's last OpenAI-form answer, and the passes it was judged with when it repeated the answer
   * before it (a polling loop shown the same body again is judged the same: those passes are replayed).
   */
  memo: LookMemo | undefined;
  /** When the traffic last named it (ms), for ageing. */
  seenAt: number;
}

/**
 * An answer as `TrafficTask.memo` keeps it: who read it, its status and bytes, its judging, and how many
 * repeats of it were judged since its passes were last counted (`replays`: counted when the report is
 * made or the memo goes, so that a polling loop's repeat costs one addition).
 */
export interface LookMemo {
  readonly key: string;
  readonly status: number;
  readonly body: Uint8Array;
  passes: readonly Pass[] | undefined;
  replays: number;
}

/** How many tasks a ledger keeps and for how long one unseen is kept. */
export interface LedgerLimits {
  readonly maxTasks: number;
  readonly idleMs: number;
}

/**
 * The tasks the traffic names, in bounded memory: at most `maxTasks` (the least recently named
 * forgotten first), and none kept once the traffic has not named it for `idleMs`. A forgotten task
 * named again starts afresh (its sequence is judged from its next look on).
 */
export class TaskLedger {
  readonly #tasks = new UseOrder<string, TrafficTask>();
  /** Tasks forgotten to stay within `maxTasks`, and because they were idle. */
  evicted = 0;
  aged = 0;

  constructor(
    readonly limits: LedgerLimits,
    readonly now: () => number,
    /** Told of each task as it leaves (evicted, aged, or replaced by one of the same id). */
    readonly leaving: (task: TrafficTask) => void = () => {},
  ) {}

  get size(): number {
    return this.#tasks.size;
  }

  /** The task, moved to the back of the ageing order (it was named now). */
  get(id: string): TrafficTask | undefined {
    const task = this.#tasks.get(id);
    if (task === undefined) return undefined;
    task.seenAt = this.now();
    this.#tasks.use(id, task);
    return task;
  }

  /** The task, left where it is in the ageing order. */
  peek(id: string): TrafficTask | undefined {
    return this.#tasks.get(id);
  }

  add(task: Omit<TrafficTask, 'seenAt'>): TrafficTask {
    this.sweep();
    const replaced = this.#tasks.get(task.id);
    if (replaced !== undefined) {
      this.leaving(replaced);
      this.#tasks.delete(task.id);
    }
    if (this.#tasks.size >= this.limits.maxTasks) {
      const [oldest, forgotten] = this.#tasks.oldest()!;
      this.leaving(forgotten);
      this.#tasks.delete(oldest);
      this.evicted++;
    }
    const kept: TrafficTask = { ...task, seenAt: this.now() };
    this.#tasks.use(task.id, kept);
    return kept;
  }

  /** Forgets the tasks not named for `idleMs` (the oldest come first: the loop stops at a fresh one). */
  sweep(): void {
    const oldest = this.now() - this.limits.idleMs;
    for (const [id, task] of this.#tasks) {
      if (task.seenAt >= oldest) return;
      this.leaving(task);
      this.#tasks.delete(id);
      this.aged++;
    }
  }
}
