import {
  DOCUMENTED_POLL,
  renderSummary,
  runContract,
  TargetError,
  writeReports,
  type ContractTarget,
} from '../../contracts/index.ts';
import { startMockServer } from '../../mocks/hosts/node-server.ts';
import type { Command } from '../commands.ts';
import { dropUndefined, numberOption, parseFlags, secondsOption } from '../options.ts';
import { UsageError } from '../usage-error.ts';

const HELP = `Usage: videotask contract [options]

Checks a deployment against the documented behaviour of the video task service. A check resting on what
the document states fails the run; one resting on an assumption (where the document says "not shown")
only warns, unless --strict. Without --base-url it starts the mock and checks that.

Options (each also from the environment variable in brackets):
  --base-url URL        the deployment [VIDEOTASK_BASE_URL]
  --api-key KEY         its API key [VIDEOTASK_API_KEY]
  --other-api-key KEY   a second user's key, for the ownership checks (§5) [VIDEOTASK_OTHER_API_KEY]
  --model M             the model the tasks use (default video-pro-v1) [VIDEOTASK_MODEL]
  --tier T              free: creates no task; lifecycle (default): creates at most --budget [VIDEOTASK_TIER]
  --budget N            most tasks the run may create (default 2) [VIDEOTASK_BUDGET]
  --strict              assumption-based checks fail instead of warn [VIDEOTASK_STRICT=1]
  --report-dir DIR      write contract-report.json and contract-junit.xml there [VIDEOTASK_REPORT_DIR]
  --poll-initial S      first polling interval in seconds (default 5, §8)
  --poll-factor F       interval growth (default 1.5, §8)
  --poll-max S          interval ceiling in seconds (default 30, §8)
  --timeout S           total seconds allowed per task (default 900)
  -h, --help            show this help

Exit status: 0 no documented check failed; 1 one did; 2 bad usage or the target cannot be checked.`;

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
    const tier = values.tier ?? env['VIDEOTASK_TIER'] ?? 'lifecycle';
    if (tier !== 'free' && tier !== 'lifecycle')
      throw new UsageError(`--tier must be free or lifecycle, got "${tier}"`);
    const budget =
      numberOption('--budget', values.budget ?? env['VIDEOTASK_BUDGET'], {
        integer: true,
        min: 0,
        max: 100,
      }) ?? 2;
    let apiKey = values['api-key'] ?? env['VIDEOTASK_API_KEY'];
    let otherApiKey = values['other-api-key'] ?? env['VIDEOTASK_OTHER_API_KEY'];
    let mock: Awaited<ReturnType<typeof startMockServer>> | undefined;
    // Against the bundled mock, a fast clock and a fast schedule keep the run short.
    const pollDefaults = baseUrl === undefined ? { initialMs: 100, factor: 1.5, maxMs: 500 } : {};
    if (baseUrl !== undefined) {
      try {
        const url = new URL(baseUrl);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
      } catch {
        throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
      }
      if (apiKey === undefined || apiKey === '')
        throw new UsageError('--api-key (or VIDEOTASK_API_KEY) is required with --base-url');
    }
    const poll = {
      ...DOCUMENTED_POLL,
      ...pollDefaults,
      ...dropUndefined({
        initialMs: secondsOption('--poll-initial', values['poll-initial']),
        maxMs: secondsOption('--poll-max', values['poll-max']),
        timeoutMs: secondsOption('--timeout', values.timeout),
        factor: numberOption('--poll-factor', values['poll-factor'], { min: 1 }),
      }),
    };
    if (baseUrl === undefined) {
      mock = await startMockServer({ port: 0, speed: 100 });
      apiKey ??= 'sk-mock-alice';
      otherApiKey ??= 'sk-mock-bob';
      console.error(`no --base-url: checking the bundled mock at ${mock.url}`);
    }
    const target: ContractTarget = {
      baseUrl: (baseUrl ?? mock!.url).replace(/\/+$/, ''),
      apiKey: apiKey!,
      otherApiKey,
      model: values.model ?? env['VIDEOTASK_MODEL'] ?? 'video-pro-v1',
      tier,
      budget,
      strict: values.strict === true || env['VIDEOTASK_STRICT'] === '1',
      poll,
      requestTimeoutMs: 30_000,
    };
    try {
      const report = await runContract(target, {
        onProgress: (line) => console.error(`  … ${line}`),
      });
      console.log(renderSummary(report));
      const reportDir = values['report-dir'] ?? env['VIDEOTASK_REPORT_DIR'];
      if (reportDir !== undefined)
        for (const file of writeReports(report, reportDir)) console.log(`wrote ${file}`);
      return report.ok ? 0 : 1;
    } catch (error) {
      if (error instanceof TargetError) {
        console.error(`videotask contract: ${error.message}`);
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
    tier: { type: 'string' },
    budget: { type: 'string' },
    strict: { type: 'boolean' },
    'report-dir': { type: 'string' },
    'poll-initial': { type: 'string' },
    'poll-factor': { type: 'string' },
    'poll-max': { type: 'string' },
    timeout: { type: 'string' },
  });
}
