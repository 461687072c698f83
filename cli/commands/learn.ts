import {
  Redactor,
  renderSummary,
  TargetError,
  writeReports,
  type ContractTarget,
} from '../../contracts/index.ts';
import { runLearn } from '../../contracts/learn/index.ts';
import type { Command } from '../command.ts';
import { parseFlags, UsageError } from '../options.ts';
import { describeProfile, existingProfile, writeProfileFile } from '../profile-file.ts';
import {
  baseUrlOption,
  exitStatus,
  seenInFull,
  profileFileOption,
  sourced,
  targetSettings,
  TARGET_FLAGS,
  TARGET_POLL_HELP,
} from './contract-target.ts';

const HELP = `Usage: videotask learn --base-url URL --api-key KEY --out FILE [options]

Learns a deployment's profile: runs the contract suite's observation against it (every route in every
task state it sees, by the owner, another user, no key and an invalid key), plus three refusals the
suite does not ask (a body that is not JSON, an unknown model, a multipart form), and writes how it
answered, cell by cell, to FILE: status codes, content types, headers, the JSON shape with the kind of
every value, error wording, task timing, progress, failures and how the video is delivered. Never an
API key, a prompt, a signed URL or a task ID. Serve it with: videotask mock --profile FILE.

A FILE that exists is refined (timing ranges widen to cover both runs) unless --fresh.

Options (the contract suite's, each also from its VIDEOTASK_* variable; see videotask contract --help):
  --base-url URL, --api-key KEY, --other-api-key KEY   the deployment and its keys (a second user's key
                        lets it learn how another user's task is refused)
  --out FILE            where to write the profile (required)
  --name NAME           the profile's name (default: the deployment's host)
  --fresh               start a new profile even if FILE exists
  --model M, --failing-model M, --failing-prompt TEXT, --family-model M --plugin NAME
  --forbidden-model M   a model this key may not use (§5): learns how it is refused
  --tier T              lifecycle (default): follows tasks; free: creates none (no timing learned)
  --budget N            most tasks it may create (default: the contract suite's, plus 1 for the
                        refusals it asks: each is refused and gives its unit back)
  --request-timeout S   seconds one request may take (default 30)
${TARGET_POLL_HELP}
                        (the denser the polling, the sharper the timing learned)
  --report-dir DIR      also write the contract run's reports there
  -h, --help            show this help

Exit status (the rule of every command that judges a deployment): 0 the profile was written and no
documented check failed; 1 a documented check failed, whatever else happened (the profile is written
all the same: it reproduces the deployment, breaks included); 2 bad usage, the run's input is wrong (a
key without quota or permission, a model the key may not use) or the target could not be learned to
the end (nothing is written then).`;

export const learnCommand: Command = {
  name: 'learn',
  async run(argv) {
    const { values } = parseLearnFlags(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const env = process.env;
    const { out, target } = learnTarget(values);
    const into = existingProfile(out, '--out', values.fresh !== true);
    const redactor = new Redactor([target.apiKey, target.otherApiKey]);
    const print = (text: string) => console.log(redactor.forTerminal(text));
    const err = (text: string) => console.error(redactor.forTerminal(text));
    try {
      const learned = await runLearn(target, {
        onProgress: (line) => err(`  … ${line}`),
        into,
        name: values.name,
      });
      print(renderSummary(learned.report));
      const reportDir = values['report-dir'] ?? env['VIDEOTASK_REPORT_DIR'];
      if (reportDir !== undefined)
        for (const file of writeReports(learned.report, reportDir, redactor))
          print(`wrote ${file}`);
      const status = exitStatus(learned.report);
      if (!seenInFull(learned.report)) {
        err(
          `videotask learn: ${out} not written: ${status.why ?? 'the run could not be completed'}`,
        );
        return status.code;
      }
      await writeProfileFile(out, learned.profile);
      print(
        `${into === undefined ? 'learned' : 'refined'} ${out}: ${describeProfile(learned.profile)}`,
      );
      for (const note of learned.notes) print(`  note: ${note}`);
      if (!learned.report.ok)
        print(
          '  note: the deployment failed documented checks (above); the profile reproduces them',
        );
      print(`serve it: videotask mock --profile ${out}`);
      if (status.why !== undefined) err(`videotask learn: ${status.why}`);
      return status.code;
    } catch (error) {
      if (error instanceof TargetError) {
        err(`videotask learn: ${error.message}`);
        return 2;
      }
      throw error;
    }
  },
};

/** Where to write and what to learn, from flags and environment (exit 2 when missing or wrong). */
export function learnTarget(values: ReturnType<typeof parseLearnFlags>['values']) {
  const out = profileFileOption('--out', values.out);
  if (out === undefined)
    throw new UsageError('--out FILE is required: where to write the learned profile');
  const baseUrl = sourced(values, 'base-url');
  if (baseUrl.value === undefined)
    throw new UsageError('--base-url is required: the deployment to learn (e.g. your staging)');
  const apiKey = sourced(values, 'api-key');
  const target: ContractTarget = {
    ...targetSettings(values, false, 1),
    baseUrl: baseUrlOption({ ...baseUrl, value: baseUrl.value }, apiKey),
    apiKey: apiKey.value!,
    otherApiKey: sourced(values, 'other-api-key').value,
  };
  return { out, target };
}

/** `learn`'s flags as parsed (strict: an unknown flag is a `UsageError`). */
export function parseLearnFlags(argv: readonly string[]) {
  return parseFlags(argv, {
    ...TARGET_FLAGS,
    out: { type: 'string' },
    name: { type: 'string' },
    fresh: { type: 'boolean' },
    strict: { type: 'boolean' },
  });
}
