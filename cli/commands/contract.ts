import {
  Redactor,
  renderSummary,
  runContract,
  TargetError,
  targetUsageProblem,
  type Har,
  writeReports,
  type ContractTarget,
} from '../../contracts/index.ts';
import { startMockServer } from '../../mocks/node/http/server.ts';
import type { Command } from '../command.ts';
import { parseFlags, UsageError } from '../options.ts';
import { runLearn } from '../../contracts/learn/index.ts';
import { describeProfile, existingProfile, writeProfileFile } from '../profile-file.ts';
import {
  BUNDLED_MOCK,
  baseUrlOption,
  exitStatus,
  seenInFull,
  harOption,
  profileFileOption,
  sourced,
  targetSettings,
  writeTraffic,
  TARGET_FLAGS,
  TARGET_POLL_HELP,
} from './contract-target.ts';

const HELP = `Usage: videotask contract [options]

Checks a deployment against the documented behaviour of the video task service. A check resting on what
the document states fails the run; one resting on an assumption (where the document says "not shown")
only warns, unless --strict. Every route is asked in every task state the run sees, by the owner,
another user, no key and an invalid key; the report says which of those cells it observed and why not
the others. Without --base-url it starts the mock and checks that.

Options (each also from the environment variable in brackets):
  --base-url URL        the deployment [VIDEOTASK_BASE_URL]
  --api-key KEY         its API key [VIDEOTASK_API_KEY]
  --other-api-key KEY   a second user's key, for the ownership checks (§5) [VIDEOTASK_OTHER_API_KEY]
  --model M             the model the tasks use (default video-pro-v1) [VIDEOTASK_MODEL]
  --failing-model M     a model the deployment fails: one extra task, so the failed state is
                        observed (§7) [VIDEOTASK_FAILING_MODEL]
  --failing-prompt TEXT a prompt the deployment fails (with --model, or --failing-model)
                        [VIDEOTASK_FAILING_PROMPT]
  --family-model M      a second-family model the key may use, and
  --plugin NAME         the task plugin declaring /{plugin}/api/v3/contents/generations/tasks:
                        the native path is checked too (§4.5) [VIDEOTASK_FAMILY_MODEL, VIDEOTASK_PLUGIN]
  --forbidden-model M   a model this key may not use (§5): submitted on both paths, it must be
                        refused with a 4xx; best one the key's token itself may not use
                        [VIDEOTASK_FORBIDDEN_MODEL]
  --tier T              free: creates no task; lifecycle (default): creates at most --budget [VIDEOTASK_TIER]
  --budget N            most tasks the run may create (default: 2, +1 with a failing model or prompt,
                        +1 with a family model, +1 more with both and a failing prompt); a submission
                        refused (4xx, 429) made no task and counts nothing; one that may have made a
                        task (5xx, no answer, a redirect) counts; refusal probes leave one lifecycle
                        task's share free [VIDEOTASK_BUDGET]
  --strict              assumption-based checks fail instead of warn [VIDEOTASK_STRICT=1]
  --report-dir DIR      write contract-report.json and contract-junit.xml there [VIDEOTASK_REPORT_DIR]
  --har FILE            write the run's traffic there as HAR 1.2, keys masked [VIDEOTASK_HAR]
${TARGET_POLL_HELP}
  --request-timeout S   seconds one request may take (default 30) [VIDEOTASK_REQUEST_TIMEOUT]
  --learn FILE          also learn the deployment's profile from the run into FILE (refined when it
                        exists; served by videotask mock --profile FILE; see videotask learn)
  -h, --help            show this help

A target that stops answering (3 requests in a row without an answer) or a run past its deadline
stops the run early: what it could not ask is reported as not observed, with that reason.

Every failure comes with its reproduction: what was expected and what arrived, the deployment's
request ID, an excerpt, and the request as a curl line (keys as $VIDEOTASK_API_KEY and
$VIDEOTASK_OTHER_API_KEY).

Exit status (the rule of every command that judges a deployment): 1 a documented check failed,
whatever else happened (what could not be checked is said too); else 2 bad usage (the same key twice),
the run's input is wrong (a key without quota or permission, a model the key may not use: every valid
task refused with a 4xx; a second key the deployment refuses; a model its catalog does not list:
nothing is submitted then; a --forbidden-model its catalog lists for the key), a base URL where
nothing answers like the service (check its path prefix), or the target could not be checked
(unreachable, the key refused, it stopped answering before the run was done, or no task could be
followed); else 0. An input error is never a failed check: it is listed as "input error", in the
JSON report's inputErrors and as a JUnit <error>.

A 429 is retried as §7 asks of clients: after its Retry-After, else 2 s, 4 s, 8 s, … (a minute at
most a wait, within the run's deadline; a submission 3 times in all), counted in the summary and the
report's retries, and recorded (rate-limit.retry-after).`;

export const contractCommand: Command = {
  name: 'contract',
  async run(argv) {
    const { values } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const inputs = contractInputs(values);
    const mock = inputs.bundled ? await startMockServer({ port: 0, ...BUNDLED_MOCK }) : undefined;
    if (mock !== undefined)
      console.error(`no --base-url: checking the bundled mock at ${mock.url}`);
    const target: ContractTarget = {
      ...inputs.target,
      baseUrl: inputs.baseUrl ?? mock!.url.replace(/\/+$/, ''),
    };
    // Every line this command prints, and both reports, go through this one redaction.
    const redactor = new Redactor([target.apiKey, target.otherApiKey]);
    const io: RunOutput = {
      redactor,
      out: (text) => console.log(redactor.forTerminal(text)),
      err: (text) => console.error(redactor.forTerminal(text)),
    };
    const recorded: Recorded = { har: inputs.har, traffic: undefined };
    try {
      return await checkTarget(target, { inputs, io, recorded, values });
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      io.err(`videotask contract: ${error.message}`);
      if (recorded.har !== undefined && recorded.traffic !== undefined)
        io.err(`wrote ${writeTraffic(recorded.har, recorded.traffic)}`);
      return 2;
    } finally {
      await mock?.close();
    }
  },
};

type Values = ReturnType<typeof parse>['values'];

interface RunOutput {
  readonly redactor: Redactor;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** `--har FILE` and the traffic the run recorded for it. */
interface Recorded {
  readonly har: string | undefined;
  traffic: Har | undefined;
}

/** The run's inputs from flags and environment, checked before anything is sent (exit 2 when wrong). */
function contractInputs(values: Values) {
  const given = sourced(values, 'base-url');
  const bundled = given.value === undefined;
  const apiKey = sourced(values, 'api-key');
  const baseUrl = bundled ? undefined : baseUrlOption({ ...given, value: given.value }, apiKey);
  const keys = {
    apiKey: apiKey.value ?? 'sk-mock-alice',
    otherApiKey: sourced(values, 'other-api-key').value ?? (bundled ? 'sk-mock-bob' : undefined),
  };
  const settings = targetSettings(values, bundled);
  const problem = targetUsageProblem({ ...keys, ...settings });
  if (problem !== undefined) throw new UsageError(problem);
  const har = harOption(values);
  const learnFile = profileFileOption('--learn', values.learn);
  const into = learnFile === undefined ? undefined : existingProfile(learnFile, '--learn');
  return {
    bundled,
    baseUrl,
    target: { ...settings, ...keys },
    har,
    learnFile,
    into,
  };
}

interface CheckRun {
  readonly inputs: ReturnType<typeof contractInputs>;
  readonly io: RunOutput;
  readonly recorded: Recorded;
  readonly values: Values;
}

/** Runs the suite (learning too with --learn), writes what was asked for, and gives the exit status. */
async function checkTarget(target: ContractTarget, run: CheckRun): Promise<number> {
  const { inputs, io, recorded, values } = run;
  const onProgress = (line: string) => io.err(`  … ${line}`);
  const onTraffic = recorded.har === undefined ? undefined : (t: Har) => (recorded.traffic = t);
  const options = { onProgress, ...(onTraffic === undefined ? {} : { onTraffic }) };
  const result =
    inputs.learnFile === undefined
      ? { report: await runContract(target, options) }
      : await runLearn(target, { ...options, into: inputs.into });
  const { report } = result;
  io.out(renderSummary(report));
  const reportDir = values['report-dir'] ?? process.env['VIDEOTASK_REPORT_DIR'];
  if (reportDir !== undefined)
    for (const file of writeReports(report, reportDir, io.redactor)) io.out(`wrote ${file}`);
  if (recorded.har !== undefined && recorded.traffic !== undefined)
    io.out(`wrote ${writeTraffic(recorded.har, recorded.traffic)}`);
  const status = exitStatus(report);
  if (status.why !== undefined) io.err(`videotask contract: ${status.why}`);
  if ('profile' in result && seenInFull(report)) {
    await writeProfileFile(inputs.learnFile!, result.profile);
    io.out(`learned ${inputs.learnFile}: ${describeProfile(result.profile)}`);
    for (const note of result.notes) io.out(`  note: ${note}`);
  } else if (inputs.learnFile !== undefined)
    io.err(`videotask contract: ${inputs.learnFile} not written: the run could not be completed`);
  return status.code;
}

function parse(argv: readonly string[]) {
  return parseFlags(argv, {
    ...TARGET_FLAGS,
    strict: { type: 'boolean' },
    har: { type: 'string' },
    learn: { type: 'string' },
  });
}
