import { readFileSync } from 'node:fs';
import { commands } from './commands.ts';
import { UsageError } from './options.ts';

/** The package root is one folder up from cli/main.ts in the sources, two up from dist/cli/main.js. */
const PACKAGE_JSON = new URL(
  import.meta.url.endsWith('.ts') ? '../package.json' : '../../package.json',
  import.meta.url,
);
const version = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `videotask ${version} — mock, client and contract checks for the video generation task service`,
    '',
    'Usage: videotask <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `videotask <command> --help` for a command's options; `videotask --version` (-V) prints the version.",
  ].join('\n');
}

/** Runs one command line; returns the exit code. The only place (with the commands) that prints. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // No command is a usage error: the help goes where errors go, and scripts see a failure.
    console.error(help());
    return 2;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    console.log(help());
    return 0;
  }
  if (name === '--version' || name === '-V' || name === '-v') {
    console.log(version);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (entry === undefined) {
    console.error(
      `videotask: unknown command "${name}". Run \`videotask --help\` to see the commands.`,
    );
    return 2;
  }
  const command = await entry.load();
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(
        `videotask ${name}: ${error.message}\nRun \`videotask ${name} --help\` for its options.`,
      );
      return 2;
    }
    // Anything else a command did not expect (a folder it could not write, a full disk): exit 2 with
    // what went wrong, never 1 (a finding, to `contract` and `drift` in CI) nor a stack trace.
    console.error(`videotask ${name}: ${describeError(error)}`);
    return 2;
  }
}

/** An unexpected error's message, without its stack. */
const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
