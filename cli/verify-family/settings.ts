/**
 * What `videotask verify-family` is asked to do: its flags and their defaults, the checked options, and
 * the settings every model's steps run with.
 */
import type { PollOptions, PollSchedule } from '../../src/client/index.ts';
import { DEFAULT_POLL_TIMEOUT_MS } from '../../src/client/poll-schedule.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import { SECOND_FAMILY } from '../../src/spec/second-family.ts';
import { numberOption, parseFlags, UsageError } from '../options.ts';
import { documentedPolling, POLL_FLAGS, pollOptions } from '../poll-options.ts';
import { SERVICE_FLAGS } from '../service-options.ts';

export const DEFAULT_SECONDS = 4;
const DEFAULT_PROMPT = 'videotask verify-family: a short test clip of a red kite over the sea';
/** The client's own total timeout (src/client, §8: "a total timeout must be set"). */
export const DEFAULT_TIMEOUT_S = DEFAULT_POLL_TIMEOUT_MS / 1000;
export const DEFAULT_REPORT_DIR = 'verification-records';

const VERIFY_FAMILY_FLAGS = {
  ...SERVICE_FLAGS,
  model: { type: 'string', multiple: true },
  seconds: { type: 'string' },
  prompt: { type: 'string' },
  'report-dir': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'plugin-name': { type: 'string' },
  ...POLL_FLAGS,
} as const;

/** `verify-family`'s flags as parsed (strict: an unknown flag is a `UsageError`). */
export function parseVerifyFamilyFlags(argv: readonly string[]) {
  return parseFlags(argv, VERIFY_FAMILY_FLAGS).values;
}
type FlagValues = ReturnType<typeof parseVerifyFamilyFlags>;

/** What `verify-family`'s flags ask for, checked; a bad value is a `UsageError` (exit 2). */
export interface VerifyFamilyOptions {
  readonly models: readonly string[];
  readonly seconds: number;
  readonly secondsGiven: boolean;
  readonly prompt: string;
  readonly pluginName: string | undefined;
  readonly poll: VerifySettings['poll'] & PollSchedule;
  readonly dryRun: boolean;
  readonly reportDir: string;
}

export function verifyFamilyOptions(values: FlagValues): VerifyFamilyOptions {
  const models = [...new Set((values.model ?? [...SECOND_FAMILY.models]).map((m) => m.trim()))];
  if (models.some((m) => m === '')) throw new UsageError('--model must not be empty');
  const seconds = numberOption('--seconds', values.seconds, { min: 0.001 }) ?? DEFAULT_SECONDS;
  const prompt = values.prompt ?? DEFAULT_PROMPT;
  if (prompt.trim() === '') throw new UsageError('--prompt must not be empty (§7)');
  const pluginName = values['plugin-name'];
  if (pluginName !== undefined && !/^[A-Za-z0-9._-]+$/.test(pluginName))
    throw new UsageError(
      `--plugin-name must be a path segment like alt-video, got "${pluginName}"`,
    );
  const poll = pollOptions(values, documentedPolling(DEFAULT_TIMEOUT_S * 1000));
  return {
    models,
    seconds,
    secondsGiven: values.seconds !== undefined,
    prompt,
    pluginName,
    poll,
    dryRun: values['dry-run'] === true,
    reportDir: values['report-dir'] ?? DEFAULT_REPORT_DIR,
  };
}

/** How each model is verified: the one task's parameters, the polling limits and where logs go. */
export interface VerifySettings {
  /** `metadata.duration` of the one task. */
  readonly seconds: number;
  /** Whether the administrator passed `--seconds` (otherwise the value is an assumption). */
  readonly secondsGiven: boolean;
  readonly prompt: string;
  readonly poll: Omit<PollOptions, 'signal' | 'onUpdate' | 'stopOn'>;
  readonly dryRun: boolean;
  /** Masks the API key in everything recorded or logged. */
  readonly redactor: Redactor;
  /** The task plugin whose native status path is read once for its `usage` (`--plugin-name`). */
  readonly pluginName?: string | undefined;
  readonly signal: AbortSignal;
  readonly log: (model: string, text: string) => void;
}
