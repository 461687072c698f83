/**
 * Reading a command line: strict flag parsing, number and second values, a flag or its environment
 * variable, the files an option names, and the `UsageError` (exit 2) every bad value becomes.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputFileError, readInputFile } from '../src/node/input-file.ts';

/** Bad command-line usage: the command prints the message and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The one TASK_ID a command takes, or a `UsageError` showing how to call it (`usage`). */
export function oneTaskId(positionals: readonly string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`give exactly one task ID: ${usage}`);
  return positionals[0]!;
}

/** A numeric flag's value, or `undefined` when absent; a bad value is a `UsageError` naming the flag. */
export function numberOption(
  flag: string,
  raw: string | undefined,
  rule: { integer?: boolean; min?: number; max?: number } = {},
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const kind = rule.integer === true ? 'an integer' : 'a number';
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (rule.integer === true && !Number.isInteger(value))
  )
    throw new UsageError(`${flag} must be ${kind}, got "${raw}"`);
  if (rule.min !== undefined && value < rule.min)
    throw new UsageError(
      `${flag} must be ${rule.min === Number.MIN_VALUE ? 'above 0' : `at least ${rule.min}`}, got ${raw}`,
    );
  if (rule.max !== undefined && value > rule.max)
    throw new UsageError(`${flag} must be at most ${rule.max}, got ${raw}`);
  return value;
}

/** `--flag S` in seconds, as milliseconds (a positive number), or undefined when absent. */
export function secondsOption(flag: string, raw: string | undefined): number | undefined {
  const seconds = numberOption(flag, raw, { min: 0.001 });
  return seconds === undefined ? undefined : seconds * 1000;
}

/** The object without its undefined entries (for options objects under exactOptionalPropertyTypes). */
export function dropUndefined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}

/** A value from a flag or, without the flag, from its environment variable, and the name a message gives it. */
export interface Sourced {
  readonly value: string | undefined;
  /** `--base-url`, or `VIDEOTASK_BASE_URL` when the value came from there. */
  readonly name: string;
}

/**
 * `flag`'s value, else the environment variable's: an error about the value names where it came from
 * (a user who set `VIDEOTASK_BASE_URL` in CI never typed `--base-url`).
 */
export function flagOrEnv(flag: string, value: string | undefined, variable: string): Sourced {
  if (value !== undefined) return { value, name: flag };
  const fromEnv = process.env[variable];
  return { value: fromEnv, name: fromEnv === undefined ? flag : variable };
}

const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Strict `parseArgs` with `-h/--help` added; a bad flag or value becomes a `UsageError` (exit 2).
 */
export function parseFlags<
  const O extends NonNullable<ParseArgsConfig['options']>,
  const P extends boolean = false,
>(argv: readonly string[], options: O, allowPositionals?: P) {
  try {
    return parseArgs({
      args: [...argv],
      options: { ...options, ...HELP_FLAG },
      allowPositionals: (allowPositionals ?? false) as P,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The library's option names a client error may hold, and the flag each is given as on the command line. */
const FLAGS = { baseUrl: '--base-url', apiKey: '--api-key' } as const;

export type OptionName = keyof typeof FLAGS;

/**
 * The library's option names in a client error, as the CLI user knows them: `baseUrl` → `--base-url`,
 * `apiKey` → `--api-key` (a user of `videotask status` never typed `baseUrl`), or the environment
 * variable the value came from (`VIDEOTASK_BASE_URL`), when `names` says so.
 */
export function withFlagNames(
  message: string,
  names: Partial<Record<OptionName, string>> = {},
): string {
  return (Object.keys(FLAGS) as OptionName[]).reduce(
    (text, option) =>
      text.replace(new RegExp(`\\b${option}\\b`, 'g'), names[option] ?? FLAGS[option]),
    message,
  );
}

/**
 * The text of a file an option names (`--config`, `--secret-file`, …), or a `UsageError` saying why
 * not in the option's words: the project's one rule for a file it reads (src/node/input-file.ts).
 */
export function readOptionFile(option: string, file: string): { text: string; mode: number } {
  try {
    return readInputFile(file, { label: option });
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(error.message);
    throw error;
  }
}
