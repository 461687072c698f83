import {
  Redactor,
  renderSummary,
  runContract,
  TargetError,
  writeReports,
  type ContractTarget,
} from '../../contracts/index.ts';
import { startMockServer } from '../../mocks/hosts/node-server.ts';
import type { Command } from '../commands.ts';
import { parseFlags } from '../options.ts';
import { runLearn } from '../../contracts/learn/index.ts';
import { describeProfile, existingProfile, writeProfileFile } from '../profile-file.ts';
import {
  BUNDLED_MOCK,
  baseUrlOption,
  exitStatus,
  profileFileOption,
  targetSettings,
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
  --tier T              free: creates no task; lifecycle (default): creates at most --budget [VIDEOTASK_TIER]
  --budget N            most tasks the run may create (default: 2, +1 with a failing model or prompt,
                        +1 with a family model, +1 more with both and a failing prompt) [VIDEOTASK_BUDGET]
  --strict              assumption-based checks fail instead of warn [VIDEOTASK_STRICT=1]
  --report-dir DIR      write contract-report.json and contract-junit.xml there [VIDEOTASK_REPORT_DIR]
  --poll-initial S      first polling interval in seconds (default 5, §8)
  --poll-factor F       interval growth (default 1.5, §8)
  --poll-max S          interval ceiling in seconds (default 30, §8)
  --timeout S           total seconds allowed per task (default 900); the whole run ends at most
                        60 s after it
  --request-timeout S   seconds one request may take (default 30) [VIDEOTASK_REQUEST_TIMEOUT]
  --learn FILE          also learn the deployment's profile from the run into FILE (refined when it
                        exists; served by videotask mock --profile FILE; see videotask learn)
  -h, --help            show this help

A target that stops answering (3 requests in a row without an answer) or a run past its deadline
stops the run early: what it could not ask is reported as not observed, with that reason.

Exit status: 0 no documented check failed; 1 one did; 2 bad usage, or the target could not be checked
(unreachable, the key refused, it stopped answering before the run was done, or no submission
was confirmed, so no task could be followed).`;

export const contractCommand: Command = {
  name: 'contract',
  async run(argv) {
    const { values } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const env = process.env;
    const baseUrl = values['base-url'] ?? env['VIDEOTASK_BASE_URL'];
    const bundled = baseUrl === undefined;
    const apiKey = values['api-key'] ?? env['VIDEOTASK_API_KEY'];
    const checkedUrl = bundled ? undefined : baseUrlOption(baseUrl, apiKey);
    const settings = targetSettings(values, bundled);
    const learnFile = profileFileOption('--learn', values.learn);
    const into = learnFile === undefined ? undefined : existingProfile(learnFile, '--learn');
    const mock = bundled ? await startMockServer({ port: 0, ...BUNDLED_MOCK }) : undefined;
    if (mock !== undefined)
      console.error(`no --base-url: checking the bundled mock at ${mock.url}`);
    const target: ContractTarget = {
      ...settings,
      baseUrl: checkedUrl ?? mock!.url.replace(/\/+$/, ''),
      apiKey: apiKey ?? 'sk-mock-alice',
      otherApiKey:
        values['other-api-key'] ??
        env['VIDEOTASK_OTHER_API_KEY'] ??
        (bundled ? 'sk-mock-bob' : undefined),
    };
    // Every line this command prints, and both reports, go through this one redaction.
    const redactor = new Redactor([target.apiKey, target.otherApiKey]);
    const out = (text: string) => console.log(redactor.forTerminal(text));
    const err = (text: string) => console.error(redactor.forTerminal(text));
    try {
      const onProgress = (line: string) => err(`  … ${line}`);
      const run =
        learnFile === undefined
          ? { report: await runContract(target, { onProgress }) }
          : await runLearn(target, { onProgress, into });
      const { report } = run;
      out(renderSummary(report));
      const reportDir = values['report-dir'] ?? env['VIDEOTASK_REPORT_DIR'];
      if (reportDir !== undefined)
        for (const file of writeReports(report, reportDir, redactor)) out(`wrote ${file}`);
      const status = exitStatus(report);
      if (status.why !== undefined) err(`videotask contract: ${status.why}`);
      if ('profile' in run && status.code !== 2) {
        await writeProfileFile(learnFile!, run.profile);
        out(`learned ${learnFile}: ${describeProfile(run.profile)}`);
        for (const note of run.notes) out(`  note: ${note}`);
      } else if (learnFile !== undefined)
        err(`videotask contract: ${learnFile} not written: the run could not be completed`);
      return status.code;
    } catch (error) {
      if (error instanceof TargetError) {
        err(`videotask contract: ${error.message}`);
        return 2;
      }
      throw error;
    } finally {
      await mock?.close();
    }
  },
};

function parse(argv: readonly string[]) {
  return parseFlags(argv, {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'other-api-key': { type: 'string' },
    model: { type: 'string' },
    'failing-model': { type: 'string' },
    'failing-prompt': { type: 'string' },
    'family-model': { type: 'string' },
    plugin: { type: 'string' },
    tier: { type: 'string' },
    budget: { type: 'string' },
    strict: { type: 'boolean' },
    'report-dir': { type: 'string' },
    'poll-initial': { type: 'string' },
    'poll-factor': { type: 'string' },
    'poll-max': { type: 'string' },
    timeout: { type: 'string' },
    'request-timeout': { type: 'string' },
    learn: { type: 'string' },
  });
}
