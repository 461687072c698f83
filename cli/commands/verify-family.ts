import { SECOND_FAMILY as SECOND_FAMILY_SPEC } from '../../src/spec/second-family.ts';
import {
  AuthenticationError,
  ConnectionError,
  RequestTimeoutError,
  maskKey,
  redact,
  type VideoTaskClient,
} from '../../src/client/index.ts';
import type { Command } from '../commands.ts';
import { verifyModel, type CatalogCheck, type ModelVerification } from '../family-verification.ts';
import { numberOption, parseFlags, secondsOption } from '../options.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import {
  DEFAULT_REPORT_DIR,
  prepareReportDir,
  recordPaths,
  writeRecord,
  type VerificationRun,
} from '../verification-record.ts';
import { UsageError } from '../usage-error.ts';

/** The second family's model IDs, as the service document states them (§1). */
export const SECOND_FAMILY: readonly string[] = SECOND_FAMILY_SPEC.models;
const DEFAULT_SECONDS = 4;
const DEFAULT_PROMPT = 'videotask verify-family: a short test clip of a red kite over the sea';
const DEFAULT_TIMEOUT_S = 1800;

const HELP = `Usage: videotask verify-family [options]

Runs steps 3–5 of the second family's rollout (§9) for each model, once the administrator has done
steps 1–2 (binding, groups, prices):
  3  /v1/models lists the model for this token; one short task is submitted (POST /v1/videos, §4)
  4  the task is polled to its final state (§8), downloaded through /content and checked to be a video
     (container signature, size, sha256); usage or charge fields are reported if the service exposes any
  5  a verification record (Markdown and JSON) is written, passed or failed
At most one task per model per run: a 429 is retried with the same request ID (§7), nothing else is.
Rehearse against the mock first: \`videotask mock --family-bound\`, then --api-key sk-mock-vip.

Options:
  --model M             a model to verify (repeatable; default: alt-video-v2, alt-video-v2-fast, alt-video-v2.5)
  --seconds N           metadata.duration of the task (default ${DEFAULT_SECONDS}: an assumption, the document does not
                        show the family's durations, §8; the record says so unless you pass it)
  --prompt P            the task's prompt
  --report-dir DIR      where the record goes (default ./${DEFAULT_REPORT_DIR})
  --dry-run             the catalog check only: submits nothing and writes nothing
  --plugin-name NAME    also read the plugin's native status path once for usage fields (§4.5; the mock's is alt-video)
  --poll-initial S      first polling interval in seconds (default 5, §8)
  --poll-factor F       interval growth (default 1.5, §8)
  --poll-max S          interval ceiling in seconds (default 30, §8)
  --timeout S           total seconds to wait per task (default ${DEFAULT_TIMEOUT_S}); at most 60 queries (§8)
${SERVICE_HELP}
  -h, --help            show this help

Exit status: 0 no step failed for any model; 1 a step failed for some model (the record is still written
for every model); 2 bad usage, the service unreachable or the key refused (nothing submitted);
130 interrupted (the record is written; tasks in progress go on).`;

export const verifyFamilyCommand: Command = {
  name: 'verify-family',
  async run(argv) {
    const { values } = parseFlags(argv, {
      ...SERVICE_FLAGS,
      model: { type: 'string', multiple: true },
      seconds: { type: 'string' },
      prompt: { type: 'string' },
      'report-dir': { type: 'string' },
      'dry-run': { type: 'boolean' },
      'plugin-name': { type: 'string' },
      'poll-initial': { type: 'string' },
      'poll-factor': { type: 'string' },
      'poll-max': { type: 'string' },
      timeout: { type: 'string' },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const models = [...new Set((values.model ?? [...SECOND_FAMILY]).map((m) => m.trim()))];
    if (models.some((m) => m === '')) throw new UsageError('--model must not be empty');
    const seconds = numberOption('--seconds', values.seconds, { min: 0.001 }) ?? DEFAULT_SECONDS;
    const prompt = values.prompt ?? DEFAULT_PROMPT;
    if (prompt.trim() === '') throw new UsageError('--prompt must not be empty (§7)');
    const pluginName = values['plugin-name'];
    if (pluginName !== undefined && !/^[A-Za-z0-9._-]+$/.test(pluginName))
      throw new UsageError(
        `--plugin-name must be a path segment like alt-video, got "${pluginName}"`,
      );
    const poll = {
      initialIntervalMs: secondsOption('--poll-initial', values['poll-initial']) ?? 5_000,
      factor: numberOption('--poll-factor', values['poll-factor'], { min: 1 }) ?? 1.5,
      maxIntervalMs: secondsOption('--poll-max', values['poll-max']) ?? 30_000,
      timeoutMs: secondsOption('--timeout', values.timeout) ?? DEFAULT_TIMEOUT_S * 1000,
      maxAttempts: 60,
    };
    if (poll.maxIntervalMs < poll.initialIntervalMs)
      throw new UsageError('--poll-max must be at least --poll-initial');
    const dryRun = values['dry-run'] === true;
    const client = clientFrom(values);
    const apiKey = (values['api-key'] ?? process.env['VIDEOTASK_API_KEY'])!;
    const secrets = [apiKey];
    const reportDir = values['report-dir'] ?? DEFAULT_REPORT_DIR;
    if (!dryRun) {
      try {
        prepareReportDir(reportDir);
      } catch (error) {
        throw new UsageError(
          `--report-dir ${reportDir} cannot be written (${(error as Error).message}); nothing was submitted`,
        );
      }
    }
    const started = new Date();
    const token = maskKey(apiKey);

    // Step 3, once for all models: what /v1/models lists for this token.
    let catalog: CatalogCheck;
    try {
      const list = await client.listModels();
      catalog = { ok: true, ids: new Set(list.data.map((m) => m.id)) };
    } catch (error) {
      const message = redact((error as Error).message, secrets);
      if (error instanceof ConnectionError || error instanceof RequestTimeoutError) {
        console.error(
          `videotask verify-family: the service at ${client.baseUrl} is unreachable: ${message}\n  → nothing was submitted and no record was written; check --base-url.`,
        );
        return 2;
      }
      if (error instanceof AuthenticationError) {
        console.error(
          `videotask verify-family: the key ${token} was refused by ${client.baseUrl} (HTTP 401): ${message}\n  → nothing was submitted and no record was written; check --api-key (§5).`,
        );
        return 2;
      }
      catalog = { ok: false, error };
    }

    console.error(
      `${dryRun ? 'dry run: checking the catalog for' : 'verifying'} ${models.join(', ')} at ${client.baseUrl} with ${token}`,
    );
    const abort = new AbortController();
    const onSignal = () => abort.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let results: ModelVerification[];
    try {
      const settings = {
        seconds,
        secondsGiven: values.seconds !== undefined,
        prompt,
        poll,
        dryRun,
        secrets,
        native: pluginName === undefined ? undefined : nativeReader(client, pluginName, apiKey),
        signal: abort.signal,
        log: (model: string, text: string) =>
          console.error(`  … ${model}: ${redact(text, secrets)}`),
      };
      results = await Promise.all(
        models.map((model) => verifyModel(client, model, catalog, settings)),
      );
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const ok = results.every((r) => r.ok);
    const exitCode = abort.signal.aborted ? 130 : ok ? 0 : 1;

    let paths: { json: string; md: string } | undefined;
    if (!dryRun) {
      paths = recordPaths(reportDir, started);
      for (const r of results) {
        const s = r.steps.find((x) => x.step === 5)!;
        if (r.ok)
          Object.assign(s, {
            outcome: 'passed',
            detail: `recorded in ${paths.json} and .md: update the verification date of the catalog and of the document to ${started.toISOString().slice(0, 10)} (§9 step 5)`,
          });
        else
          s.detail = `not verified: this record (${paths.json} and .md) is kept for investigation by the error message (§9 step 5); do not update the verification date`;
      }
    }
    const run: VerificationRun = {
      kind: 'videotask verify-family',
      formatVersion: 1,
      date: started.toISOString(),
      baseUrl: client.baseUrl,
      apiKey: token,
      dryRun,
      settings: {
        endpoint: 'POST /v1/videos',
        seconds,
        secondsSource:
          values.seconds !== undefined
            ? 'given with --seconds'
            : `assumed: ${DEFAULT_SECONDS} s is the default, the smallest the mock and the gateway plugin accept; the document does not show the family's durations (§8), pass --seconds N to state it`,
        prompt,
        poll: {
          initialMs: poll.initialIntervalMs,
          factor: poll.factor,
          maxMs: poll.maxIntervalMs,
          maxAttempts: poll.maxAttempts,
          timeoutMs: poll.timeoutMs,
        },
        pluginName: pluginName ?? null,
      },
      ok,
      exitCode,
      models: results,
    };

    console.log(summary(run));
    if (paths !== undefined) {
      try {
        writeRecord(run, paths);
        console.log(`record: ${paths.json}\n        ${paths.md}`);
      } catch (error) {
        console.error(
          `videotask verify-family: could not write the record to ${reportDir}: ${(error as Error).message}. Here it is instead:`,
        );
        console.log(JSON.stringify(run, null, 2));
        return 1;
      }
    }
    console.log(closing(run));
    return exitCode;
  },
};

function summary(run: VerificationRun): string {
  const width = Math.max(...run.models.map((m) => m.model.length));
  const lines: string[] = [];
  for (const m of run.models) {
    if (m.ok) {
      const what = run.dryRun
        ? 'listed by /v1/models (dry run: nothing submitted)'
        : `${m.taskId} ${m.finalStatus}; ${m.bytes} bytes, ${m.containerSignature}, sha256 ${m.sha256}; usage: ${m.usage.exposed ? JSON.stringify(m.usage.fields) : 'not exposed by the service'}`;
      lines.push(`${m.model.padEnd(width)}  passed  ${what}`);
      continue;
    }
    const failed = m.steps.find((s) => s.outcome === 'failed')!;
    lines.push(
      `${m.model.padEnd(width)}  FAILED  at step ${failed.step} (${failed.name}): ${failed.detail}`,
    );
    if (m.taskId !== null)
      lines.push(
        `${' '.repeat(width)}          task ${m.taskId}${m.finalStatus === null ? '' : `, last status ${m.finalStatus}`}${m.errorCode === null ? '' : `, error code ${m.errorCode}`}`,
      );
    lines.push(`${' '.repeat(width)}          next: ${m.advice}`);
  }
  return lines.join('\n');
}

function closing(run: VerificationRun): string {
  const failed = run.models.filter((m) => !m.ok);
  if (run.exitCode === 130)
    return 'Interrupted: tasks in progress go on (follow them with `videotask wait TASK_ID`); the record shows where each model stopped.';
  if (run.dryRun)
    return failed.length === 0
      ? 'Dry run: every model is listed; run without --dry-run to verify (one task per model).'
      : `Dry run: ${failed.length} of ${run.models.length} model(s) not listed; nothing was submitted or written.`;
  if (failed.length === 0)
    return `All ${run.models.length} model(s) passed: update the verification date of the catalog and of the service document to ${run.date.slice(0, 10)} (§9 step 5).`;
  return `${failed.length} of ${run.models.length} model(s) failed (${failed.map((m) => `${m.model} at step ${m.failedStep?.step}`).join(', ')}): do not update the verification date; keep the record and investigate by the error message (§9 step 5).`;
}

/** One GET of the plugin's native status path (§4.5; its shape is not shown, so it is only searched for usage fields). */
function nativeReader(client: VideoTaskClient, pluginName: string, apiKey: string) {
  return async (taskId: string, signal: AbortSignal): Promise<unknown> => {
    const path = `/${pluginName}/api/v3/contents/generations/tasks/${encodeURIComponent(taskId)}`;
    const response = await fetch(`${client.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(client.requestTimeoutMs)]),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`GET ${path} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`GET ${path} answered something that is not JSON`);
    }
  };
}
