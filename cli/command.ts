/** What a `videotask` command is, and how the command table (cli/commands.ts) names one. */

export interface Command {
  readonly name: string;
  /** Returns the process exit code. Throws `UsageError` for bad arguments. */
  run(argv: readonly string[]): Promise<number>;
}

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Loaded on use only: `videotask mock` must not pay for the client, msw or the contract suites. */
  readonly load: () => Promise<Command>;
}
