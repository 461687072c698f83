import { lintSpecCommand } from './commands/lint-spec.ts';
import { mockCommand } from './commands/mock.ts';
import { contractCommand } from './commands/contract.ts';

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Returns the process exit code. Throws `UsageError` for bad arguments. */
  run(argv: readonly string[]): Promise<number>;
}

export const commands: readonly Command[] = [mockCommand, contractCommand, lintSpecCommand];
