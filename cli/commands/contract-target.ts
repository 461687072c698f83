import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOCUMENTED_POLL,
  plannedTasks,
  Redactor,
  type ContractReport,
  type FailingTask,
  type FamilyTarget,
  type Har,
  type PollSchedule,
  writePrivateFile,
} from '../../contracts/index.ts';
import { checkBaseUrl } from '../../src/client/client-support.ts';
import {
  withFlagNames,
  dropUndefined,
  flagOrEnv,
  numberOption,
  secondsOption,
  type Sourced,
  UsageError,
} from '../options.ts';
import { RUN_DEADLINE_MARGIN_MS } from '../../contracts/run-limits.ts';
import { contractFindings, exitStatusOf, type ExitStatus } from '../../contracts/exit-status.ts';
import { POLL_FLAGS, pollHelp, pollOptions, type PollFlagValues } from '../poll-options.ts';

/**
 * The flags that name a target and what to run against it, as `parseArgs` takes them: the same for
 * every command running the suite's observation (contract, learn, drift), each adding its own.
 */
export const TARGET_FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'other-api-key': { type: 'string' },
  model: { type: 'string' },
  'failing-model': { type: 'string' },
  'failing-prompt': { type: 'string' },
  'family-model': { type: 'string' },
  plugin: { type: 'string' },
  'forbidden-model': { type: 'string' },
  tier: { type: 'string' },
  budget: { type: 'string' },
  'report-dir': { type: 'string' },
  'request-timeout': { type: 'string' },
  ...POLL_FLAGS,
} as const;

/**
 * The help lines of the `--poll-*` flags of every command running the suite's observation (contract,
 * learn, drift): §8's defaults and the suite's own total timeout, read where they are defined.
 */
export const TARGET_POLL_HELP = pollHelp(
  DOCUMENTED_POLL.timeoutMs / 1000,
  `;\n                        the whole run ends at most ${RUN_DEADLINE_MARGIN_MS / 1000} s after it`,
);

/** The flags of `videotask contract` (each also from a `VIDEOTASK_*` variable, read by the caller). */
export interface ContractFlags extends PollFlagValues {
  readonly har?: string | undefined;
  readonly 'base-url'?: string | undefined;
  readonly 'api-key'?: string | undefined;
  readonly 'other-api-key'?: string | undefined;
  readonly model?: string | undefined;
  readonly tier?: string | undefined;
  readonly budget?: string | undefined;
  readonly 'failing-model'?: string | undefined;
  readonly 'failing-prompt'?: string | undefined;
  readonly 'family-model'?: string | undefined;
  readonly plugin?: string | undefined;
  readonly 'forbidden-model'?: string | undefined;
  readonly 'request-timeout'?: string | undefined;
}

/** `--flag-name`'s value, or `VIDEOTASK_FLAG_NAME`'s, named as where it came from. */
export const sourced = (values: ContractFlags, flag: keyof ContractFlags): Sourced =>
  flagOrEnv(`--${flag}`, values[flag], `VIDEOTASK_${flag.toUpperCase().replace(/-/g, '_')}`);

/** The value of a flag (or its variable) that may be left out but not given empty. */
export function nonEmpty(values: ContractFlags, flag: keyof ContractFlags): string | undefined {
  const { value, name } = sourced(values, flag);
  if (value !== undefined && value.trim() === '')
    throw new UsageError(`${name} must not be empty (or leave it out)`);
  return value;
}

/** The flags every command running the contract suite's observation reads (contract, learn, drift). */
export interface RunFlags extends ContractFlags {
  readonly model?: string | undefined;
  readonly tier?: string | undefined;
  readonly strict?: boolean | undefined;
}

/**
 * Everything of a target but where it points and its keys: the model, tier, budget (`extraBudget`
 * more than the planned tasks by default: the learning probes), polling, limits, failing and family.
 */
export function targetSettings(values: RunFlags, bundled: boolean, extraBudget = 0) {
  const tier = sourced(values, 'tier');
  const tierValue = tier.value ?? 'lifecycle';
  if (tierValue !== 'free' && tierValue !== 'lifecycle')
    throw new UsageError(`${tier.name} must be free or lifecycle, got "${tierValue}"`);
  const failing = failingTask(values, bundled);
  const family = familyTarget(values);
  return {
    model: nonEmpty(values, 'model') ?? 'video-pro-v1',
    tier: tierValue,
    budget: budgetOption(values, { failing, family }, extraBudget),
    strict: values.strict === true || process.env['VIDEOTASK_STRICT'] === '1',
    poll: pollOption(values, bundled),
    requestTimeoutMs: requestTimeoutOption(values),
    failing,
    family,
    forbiddenModel: nonEmpty(values, 'forbidden-model'),
  } as const;
}

/** `--learn FILE`, `--out FILE`: where to write (or refine) a learned profile. */
export function profileFileOption(flag: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.trim() === '')
    throw new UsageError(`${flag} needs a file name (e.g. ${flag} staging.profile.json)`);
  return raw;
}

/** `--failing-model` / `--failing-prompt`: one extra task expected to fail (§7's `failed` column). */
function failingTask(values: ContractFlags, bundled: boolean): FailingTask | undefined {
  const model = nonEmpty(values, 'failing-model');
  const prompt = nonEmpty(values, 'failing-prompt');
  if (model !== undefined || prompt !== undefined) return dropUndefined({ model, prompt });
  // The bundled mock fails a task whose prompt asks for it (docs/mock.md "Scenarios").
  return bundled ? { prompt: 'videotask contract check [mock:fail]' } : undefined;
}

/** `--family-model` with `--plugin`: the second family's native path (§4.5). Both or neither. */
function familyTarget(values: ContractFlags): FamilyTarget | undefined {
  const model = nonEmpty(values, 'family-model');
  const plugin = nonEmpty(values, 'plugin');
  if (model === undefined && plugin === undefined) return undefined;
  if (model === undefined || plugin === undefined)
    throw new UsageError(
      '--family-model and --plugin go together: the native path is ' +
        '/{plugin}/api/v3/contents/generations/tasks, asked with a second-family model',
    );
  if (!/^[A-Za-z0-9._-]+$/.test(plugin))
    throw new UsageError(
      `${sourced(values, 'plugin').name} must be a path segment (letters, digits, . _ -), got "${plugin}"`,
    );
  return { model, plugin };
}

/** `--budget`, or by default one task per submit path plus one per failing and native-path task. */
function budgetOption(
  values: ContractFlags,
  planned: Parameters<typeof plannedTasks>[0],
  extra = 0,
): number {
  const { value, name } = sourced(values, 'budget');
  const given = numberOption(name, value, {
    integer: true,
    min: 0,
    max: 100,
  });
  return given ?? plannedTasks(planned) + extra;
}

/**
 * The bundled mock: its clock runs 25×, and its tasks stay queued 1–2 s and run 2–4 s of real time,
 * long enough for a state's probe batch and the look that confirms it even on a loaded machine, so the
 * coverage line is the same run after run (with the default 2–8 s queue, 80–320 ms at 25×, a busy
 * 2-core machine lost the queued column every other run).
 */
export const BUNDLED_MOCK = {
  speed: 25,
  timing: { queueMs: [25_000, 50_000], runMs: [50_000, 100_000] },
} as const;

/** The polling schedule: §8's, or a fast one against the bundled mock (BUNDLED_MOCK). */
function pollOption(values: ContractFlags, bundled: boolean): PollSchedule {
  const fast = bundled ? { initialIntervalMs: 100, factor: 1.5, maxIntervalMs: 500 } : {};
  return pollOptions(values, { ...DOCUMENTED_POLL, ...fast });
}

/**
 * `--base-url` (or `VIDEOTASK_BASE_URL`), checked as the client commands check it (src/client's
 * `checkBaseUrl`): an http(s) URL without credentials, query or a trailing `/v1`. Its messages name
 * where the value came from and pass through the redaction, so a password in the URL is never
 * echoed, even in "not a URL".
 */
export function baseUrlOption(baseUrl: Sourced & { value: string }, apiKey: Sourced): string {
  let checked: string;
  try {
    checked = checkBaseUrl(baseUrl.value);
  } catch (error) {
    const message = withFlagNames((error as Error).message, { baseUrl: baseUrl.name });
    throw new UsageError(new Redactor([apiKey.value]).redact(message));
  }
  if (apiKey.value === undefined || apiKey.value === '')
    throw new UsageError(`--api-key (or VIDEOTASK_API_KEY) is required with ${baseUrl.name}`);
  return checked;
}

/**
 * `--har FILE` (or `VIDEOTASK_HAR`): where the run's traffic goes. Checked before the run, so a path
 * that cannot take a file never costs a run: a folder is a usage error.
 */
export function harOption(values: ContractFlags): string | undefined {
  const { value, name } = sourced(values, 'har');
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${name} must not be empty (or leave it out)`);
  if (existsSync(value) && statSync(value).isDirectory())
    throw new UsageError(
      `${name} ${value} is a folder: give a file name, like ${join(value, 'contract.har')}`,
    );
  return value;
}

/** Writes the run's traffic (already redacted) as HAR 1.2, atomically and readable by its owner only. */
export function writeTraffic(path: string, har: Har): string {
  return writePrivateFile(path, `${JSON.stringify(har, null, 2)}\n`);
}

/** `--request-timeout S`: how long one request may take (default 30 s). */
export function requestTimeoutOption(values: ContractFlags): number {
  const { value, name } = sourced(values, 'request-timeout');
  return secondsOption(name, value) ?? 30_000;
}

/**
 * The exit status of a finished run: the one rule of every command that judges a deployment
 * (contracts/exit-status.ts): 1 when a documented check failed, whatever else happened; else 2 when
 * the run's input is wrong or what it was asked to judge could not be judged (it stopped early, no
 * task could be followed, no submission was confirmed); else 0. The report carries it as `exit`.
 */
export function exitStatus(report: ContractReport): ExitStatus {
  return exitStatusOf(contractFindings(report));
}

/**
 * Whether a run saw everything it was asked to see, so that a profile learned from it may be written:
 * no input error, nothing left unjudged (a failed check does not matter: the profile reproduces it).
 */
export function seenInFull(report: ContractReport): boolean {
  const { inputErrors, unjudged } = contractFindings(report);
  return inputErrors.length === 0 && unjudged.length === 0;
}
