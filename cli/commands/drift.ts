import { join } from 'node:path';
import {
  Redactor,
  TargetError,
  type ContractReport,
  type ContractTarget,
} from '../../contracts/index.ts';
import { contractFindings, exitStatusOf, type RunFindings } from '../../contracts/exit-status.ts';
import { renderDriftSummary, runDrift, writeDriftReports } from '../../contracts/drift/index.ts';
import { BUILT_IN_MODELS, type MockToken } from '../../mocks/index.ts';
import { startMockServer } from '../../mocks/node/http/server.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';
import type { Command } from '../command.ts';
import { flagOrEnv, parseFlags, type Sourced, UsageError } from '../options.ts';
import { readProfileFile, writeProfileFile } from '../profile-file.ts';
import {
  baseUrlOption,
  nonEmpty,
  TARGET_FLAGS,
  TARGET_POLL_HELP,
  targetSettings,
} from './contract-target.ts';

/** The keys of a B the command starts (`--against-profile`): the mock's own, and any token it adds. */
interface MockKeys {
  readonly primary: string;
  readonly other: string;
  readonly tokens: readonly MockToken[];
}

/**
 * The mock's keys for B: the vip key (it reaches the second family); with `--forbidden-model M`, a vip
 * token that may use every model of its group but M (§5: the token's permissions), so B is asked the
 * same refusal as A.
 */
function mockKeys(forbidden: string | undefined): MockKeys {
  if (forbidden === undefined) return { primary: 'sk-mock-vip', other: 'sk-mock-bob', tokens: [] };
  const models = BUILT_IN_MODELS.filter((m) => m.groups.includes('vip') && m.id !== forbidden);
  const token: MockToken = {
    key: 'sk-mock-vip-drift',
    user: 'vip',
    group: 'vip',
    models: models.map((m) => m.id),
    description: `vip, but not ${forbidden} (videotask drift --forbidden-model)`,
  };
  return { primary: token.key, other: 'sk-mock-bob', tokens: [token] };
}

const HELP = `Usage: videotask drift --base-url A --api-key KEY --against B --against-api-key KEY [options]

Runs one request sequence against two deployments side by side (the contract suite's observation,
its budget and tiers) and lists every difference in how they answer, step by step and cell by cell:
status code, content type, JSON shape and value kinds, headers that matter (request ID, rate limits,
caching), response time class, the tasks' timing class, progress, wrapper statuses, how the video is
delivered, the IDs' forms, and contract checks that fail on one side only. Typical pairs: staging and
the mock serving its learned profile (has staging changed?), staging and production (--tier free:
read-only routes, no task created).

Options (each side's own, then the sequence's; each also from the variable in brackets):
  --base-url URL            A [VIDEOTASK_BASE_URL]
  --api-key KEY             A's key [VIDEOTASK_API_KEY]
  --other-api-key KEY       a second user's key on A [VIDEOTASK_OTHER_API_KEY]
  --failing-prompt TEXT     a prompt A fails (a failed task on A)
  --against URL             B [VIDEOTASK_AGAINST_URL]
  --against-api-key KEY     B's key [VIDEOTASK_AGAINST_API_KEY]; with --against-profile, default
                            sk-mock-vip (the mock's key that reaches the second family)
  --against-other-api-key KEY  a second user's key on B [VIDEOTASK_AGAINST_OTHER_API_KEY]; with
                            --against-profile, default sk-mock-bob
  --against-failing-prompt TEXT  a prompt B fails (default: A's; the mock fails "… [mock:fail]")
  --against-profile FILE    B is the mock serving FILE (videotask learn wrote it), started here with its
                            own keys: the CI check that staging still answers as its committed profile
  --model M, --failing-model M, --family-model M --plugin NAME, --forbidden-model M
                            as videotask contract, the same on both sides (with --against-profile,
                            the mock's key may not use the forbidden model either)
  --tier T                  lifecycle (default) or free (read-only routes: creates no task)
  --budget N                most tasks each side may create (default as videotask learn)
  --request-timeout S       seconds one request may take (default 30)
${TARGET_POLL_HELP}
                        (both sides poll and end as these say)
  --report-dir DIR          write drift-report.json and drift-report.md there (0600; made if missing)
  --learn-dir DIR           also write what each side was learned as (a.profile.json,
                            b.profile.json; made if missing)
  -h, --help                show this help

Give both sides a second user's key or neither: the sequence must be the same.

In CI, after QA committed staging's profile:
  videotask drift --base-url "$STAGING" --api-key "$KEY" --against-profile staging.profile.json

Exit status (the rule of every command that judges a deployment): 1 differences (listed), whatever
else happened; else 2 bad usage, a side's input is wrong (a key without quota or permission, a model
the key may not use), nothing answers like the service at a base URL, or a side could not be asked
to the end (unreachable, a key refused, it stopped answering, no task followed); else 0.`;

export const driftCommand: Command = {
  name: 'drift',
  async run(argv) {
    const { values } = parseDriftFlags(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const againstProfile = values['against-profile'];
    if (againstProfile !== undefined && values.against !== undefined)
      throw new UsageError('--against and --against-profile name B twice: give one');
    const profile =
      againstProfile === undefined
        ? undefined
        : readProfileFile(againstProfile, '--against-profile');
    const keys = mockKeys(nonEmpty(values, 'forbidden-model'));
    const mock =
      profile === undefined
        ? undefined
        : await startMockServer({
            port: 0,
            profile,
            familyBound: servesFamily(profile),
            tokens: keys.tokens,
          });
    try {
      return await drift(
        values,
        mock === undefined || profile === undefined ? undefined : { url: mock.url, keys, profile },
      );
    } finally {
      await mock?.close();
    }
  },
};

export type Values = ReturnType<typeof parseDriftFlags>['values'];

/** Whether a profile learned the second family's native path (the mock serving it binds the family). */
function servesFamily(profile: LearnedProfile): boolean {
  return Object.keys(profile.answers).some((cell) => cell.startsWith('createPluginTask '));
}

/** Runs the drift, prints it, writes what was asked for; the exit status. */
async function drift(values: Values, mock: StartedMock | undefined): Promise<number> {
  const { a, b } = targets(values, mock);
  const redactor = new Redactor([a.apiKey, a.otherApiKey, b.apiKey, b.otherApiKey]);
  const out = (text: string) => console.log(redactor.forTerminal(text));
  const err = (text: string) => console.error(redactor.forTerminal(text));
  try {
    const { report, profiles, reports } = await runDrift(a, b, {
      a: { onProgress: (line) => err(`  … A ${line}`) },
      b: { onProgress: (line) => err(`  … B ${line}`) },
      // B replays the profile: what it never learned is no difference (decisions/038).
      ...(mock === undefined ? {} : { bReplays: mock.profile }),
    });
    out(renderDriftSummary(report));
    const reportDir = values['report-dir'] ?? process.env['VIDEOTASK_REPORT_DIR'];
    if (reportDir !== undefined)
      for (const file of await writeDriftReports(report, reportDir, redactor)) out(`wrote ${file}`);
    const learnDir = values['learn-dir'];
    if (learnDir !== undefined)
      for (const [side, profile] of [
        ['a', profiles.a],
        ['b', profiles.b],
      ] as const) {
        const file = join(learnDir, `${side}.profile.json`);
        await writeProfileFile(file, profile);
        out(`wrote ${file}`);
      }
    const status = exitStatusOf(driftFindings(report.differences.length, reports));
    if (status.why !== undefined) err(`videotask drift: ${status.why}`);
    return status.code;
  } catch (error) {
    if (error instanceof TargetError) {
      err(`videotask drift: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

/**
 * What a drift found, for the one exit status rule (contracts/exit-status.ts): its differences are its
 * findings; each side's input errors and what it left unjudged (stopped early, no task followed) are
 * said with the side's letter.
 */
function driftFindings(
  differences: number,
  reports: { readonly a: ContractReport; readonly b: ContractReport },
): RunFindings {
  const sides = [
    ['A', reports.a],
    ['B', reports.b],
  ] as const;
  return {
    failures: differences,
    inputErrors: sides.flatMap(([side, r]) =>
      contractFindings(r).inputErrors.map((e) => `${side}: ${e}`),
    ),
    unjudged: sides.flatMap(([side, r]) =>
      contractFindings(r).unjudged.map((why) => `${side} could not be asked to the end: ${why}`),
    ),
  };
}

/** The mock B is when the command starts it: where it listens, its keys, the profile it serves. */
interface StartedMock {
  readonly url: string;
  readonly keys: MockKeys;
  readonly profile: LearnedProfile;
}

/**
 * Both sides: the same sequence (settings, second key or none), each with its own place and keys. B
 * may be the mock started here (`mock`): its own keys then, and a failing prompt it fails.
 */
export function targets(
  values: Values,
  mock: StartedMock | undefined,
): { a: ContractTarget; b: ContractTarget } {
  const env = process.env;
  const settings = targetSettings(values, false, 1);
  const side = (url: Sourced, key: Sourced) => {
    if (url.value === undefined) throw new UsageError(`${url.name} is required`);
    if (key.value === undefined || key.value === '')
      throw new UsageError(`${key.name} (or its VIDEOTASK_ variable) is required with ${url.name}`);
    const checked = baseUrlOption({ ...url, value: url.value }, key);
    return { baseUrl: checked.replace(/\/+$/, ''), apiKey: key.value };
  };
  const a = side(
    flagOrEnv('--base-url', values['base-url'], 'VIDEOTASK_BASE_URL'),
    flagOrEnv('--api-key', values['api-key'], 'VIDEOTASK_API_KEY'),
  );
  const otherA = values['other-api-key'] ?? env['VIDEOTASK_OTHER_API_KEY'];
  const keyB = flagOrEnv(
    '--against-api-key',
    values['against-api-key'],
    'VIDEOTASK_AGAINST_API_KEY',
  );
  const givenOtherB = values['against-other-api-key'] ?? env['VIDEOTASK_AGAINST_OTHER_API_KEY'];
  // The mock started here knows its own keys: one given for B is the one used (and shown), else its own.
  const b =
    mock !== undefined
      ? side(
          { name: '--against-profile', value: mock.url },
          keyB.value === undefined ? { name: 'the mock', value: mock.keys.primary } : keyB,
        )
      : side(flagOrEnv('--against', values.against, 'VIDEOTASK_AGAINST_URL'), keyB);
  const otherB =
    mock !== undefined && otherA !== undefined ? (givenOtherB ?? mock.keys.other) : givenOtherB;
  if ((otherA === undefined) !== (otherB === undefined))
    throw new UsageError(
      "give both sides a second user's key (--other-api-key and --against-other-api-key) or neither: " +
        'the sequence must be the same on both',
    );
  const failingB =
    values['against-failing-prompt'] ??
    (mock === undefined || settings.failing === undefined
      ? undefined
      : `${settings.failing.prompt ?? 'videotask drift check'} [mock:fail]`);
  const failing =
    failingB === undefined ? settings.failing : { ...settings.failing, prompt: failingB };
  return {
    a: { ...settings, ...a, otherApiKey: otherA },
    b: { ...settings, ...b, otherApiKey: otherB, failing },
  };
}

/** `drift`'s flags as parsed (strict: an unknown flag is a `UsageError`). */
export function parseDriftFlags(argv: readonly string[]) {
  return parseFlags(argv, {
    ...TARGET_FLAGS,
    against: { type: 'string' },
    'against-api-key': { type: 'string' },
    'against-other-api-key': { type: 'string' },
    'against-failing-prompt': { type: 'string' },
    'against-profile': { type: 'string' },
    'learn-dir': { type: 'string' },
  });
}
