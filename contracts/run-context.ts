import type { HttpRecorder } from './http-recorder.ts';
import type { ContractTarget } from './target.ts';
import type { Verdicts } from './verdicts.ts';

/** Tasks cost money on a real deployment: every request that could create one spends from this. */
export class TaskBudget {
  created = 0;
  reserved = 0;

  constructor(readonly limit: number) {}

  /** Reserves one task for a request that may create it; false when the budget does not allow it. */
  reserve(): boolean {
    if (this.created + this.reserved >= this.limit) return false;
    this.reserved++;
    return true;
  }

  /** Settles a reservation: whether a task was in fact created. */
  settle(created: boolean): void {
    this.reserved--;
    if (created) this.created++;
  }
}

export interface RunContext {
  readonly target: ContractTarget;
  readonly recorder: HttpRecorder;
  readonly verdicts: Verdicts;
  readonly budget: TaskBudget;
  readonly notes: string[];
  /** Live progress for a person watching (one line each). */
  readonly progress: (line: string) => void;
}
