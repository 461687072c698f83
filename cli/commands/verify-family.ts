import type { VideoTaskClient } from '../../src/client/index.ts';
import { maskKey, Redactor } from '../../src/redaction/redactor.ts';
import type { Command } from '../command.ts';
import { interruptible } from '../signals.ts';
import { clientFrom, SERVICE_HELP } from '../service-options.ts';
import { printErr, printOut } from '../output.ts';
import { UsageError } from '../options.ts';
import {
  readCatalog,
  unknownModels,
  verifyModel,
  type CatalogCheck,
} from '../verify-family/steps.ts';
import {
  closingLine,
  markRecorded,
  prepareReportDir,
  recordPaths,
  runSummary,
  verificationRun,
  writeRecord,
  type VerificationRun,
} from '../verify-family/record.ts';
import {
  DEFAULT_REPORT_DIR,
  DEFAULT_SECONDS,
  DEFAULT_TIMEOUT_S,
  parseVerifyFamilyFlags,
  verifyFamilyOptions,
  type VerifyFamilyOptions,
  type VerifySettings,
} from '../verify-family/settings.ts';
import { pollHelp } from '../poll-options.ts';

const HELP = `Usage: videotask verify-family [options]

Runs steps 3–5 of the second family's rollout (§9) for each model, once the administrator has done
steps 1–2 (binding, groups, prices):
  3  /v1/models lists the model for this token; one short task is submitted (POST /v1/videos, §4)
  4  the task is polled to its final state (§8), downloaded through /content and checked to be a video
     (container signature, size, sha256); usage or charge fields are reported if the service exposes any,
     and so is the gateway's X-New-Api-Other-Ratios header when the submission answer carries it
  5  a verification record (Markdown and JSON) is written, passed or failed
At most one task per model per run: a 429 is retried with the same client request ID (§7), nothing else is.
Rehearse against the mock first: \`videotask mock --family-bound\`, then --api-key sk-mock-vip.

Options:
  --model M             a model to verify (repeatable; default: alt-video-v2, alt-video-v2-fast, alt-video-v2.5)
  --seconds N           metadata.duration of the task (default ${DEFAULT_SECONDS}: an assumption, the document does not
                        show the family's durations, §8; the record says so unless you pass it)
  --prompt P            the task's prompt
  --report-dir DIR      where the record goes (default ./${DEFAULT_REPORT_DIR})
  --dry-run             the catalog check only: submits nothing and writes nothing
  --plugin-name NAME    also read the plugin's native status path once for usage fields (§4.5; the mock's is alt-video)
${pollHelp(DEFAULT_TIMEOUT_S)}
${SERVICE_HELP}
  -h, --help            show this help

Exit status (the rule of every command that judges a deployment): 1 a step failed for some model (the
record is still written for every model); else 2 bad usage (a --model the catalog does not list that
is no second-family ID: a typo), the service unreachable, nothing at the base URL answering like the
service, the key refused (nothing submitted), or the run's input wrong (the test token refused a
model's submission for its permission or quota, 401/402/403: recorded as the model's inputError);
else 0; 130 interrupted (the record is written; tasks in progress go on).`;

export const verifyFamilyCommand: Command = {
  name: 'verify-family',
  async run(argv) {
    const values = parseVerifyFamilyFlags(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const options = verifyFamilyOptions(values);
    const client = clientFrom({ ...values, tool: 'verify-family' }, 'sk-mock-vip');
    const apiKey = (values['api-key'] ?? process.env['VIDEOTASK_API_KEY'])!;
    if (!options.dryRun) prepareReportDirOrExplain(options.reportDir);
    const started = new Date();
    const maskedKey = maskKey(apiKey);
    // The record files and every line printed are redacted with the key (printErr/printOut too).
    const redactor = new Redactor([apiKey]);

    const read = await readCatalog(client, redactor, { apiKey, masked: maskedKey });
    if ('fatal' in read) {
      printErr(read.fatal);
      return 2;
    }
    const unknown = unknownModels(read.catalog, options.models);
    if (unknown !== undefined) {
      printErr(unknown);
      return 2;
    }
    const doing = options.dryRun ? 'dry run: checking the catalog for' : 'verifying';
    printErr(`${doing} ${options.models.join(', ')} at ${client.baseUrl} with ${maskedKey}`);
    const { value: results, interrupted } = await interruptible((signal) =>
      verifyAll(client, read.catalog, options, { signal, redactor }),
    );

    const paths = options.dryRun ? undefined : recordPaths(options.reportDir, started);
    if (paths !== undefined) markRecorded(results, paths, started);
    const run = verificationRun({
      started,
      baseUrl: client.baseUrl,
      maskedKey,
      options,
      results,
      interrupted,
    });
    printOut(runSummary(run));
    const where = { reportDir: options.reportDir, redactor };
    if (paths !== undefined && !(await saved(run, { paths, ...where }))) return 1;
    printOut(closingLine(run));
    return run.exitCode;
  },
};

function prepareReportDirOrExplain(reportDir: string): void {
  try {
    prepareReportDir(reportDir);
  } catch (error) {
    const why = (error as Error).message;
    throw new UsageError(
      `--report-dir ${reportDir} cannot be written (${why}); nothing was submitted`,
    );
  }
}

/** Every model at once, each with at most one task; a model's failure never stops another's. */
function verifyAll(
  client: VideoTaskClient,
  catalog: CatalogCheck,
  options: VerifyFamilyOptions,
  context: { signal: AbortSignal; redactor: Redactor },
) {
  const { signal, redactor } = context;
  const { pluginName } = options;
  const settings: VerifySettings = {
    seconds: options.seconds,
    secondsGiven: options.secondsGiven,
    prompt: options.prompt,
    poll: options.poll,
    dryRun: options.dryRun,
    redactor,
    pluginName,
    signal,
    log: (model, text) => printErr(`  … ${model}: ${text}`),
  };
  return Promise.all(options.models.map((model) => verifyModel(client, model, catalog, settings)));
}

/** Writes the record; when it cannot, prints it instead and says so. Returns whether it was written. */
async function saved(
  run: VerificationRun,
  where: { paths: { json: string; md: string }; reportDir: string; redactor: Redactor },
): Promise<boolean> {
  const { paths, reportDir, redactor } = where;
  try {
    await writeRecord(run, paths, redactor);
    printOut(`record: ${paths.json}\n        ${paths.md}`);
    return true;
  } catch (error) {
    const why = (error as Error).message;
    printErr(
      `videotask verify-family: could not write the record to ${reportDir}: ${why}. Here it is instead:`,
    );
    printOut(JSON.stringify(run, null, 2));
    return false;
  }
}
