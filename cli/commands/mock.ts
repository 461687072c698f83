import { startMockServer } from '../../mocks/hosts/node-server.ts';
import { WORKER_ENV, requestIdsOf, taskIdShareOf } from '../../mocks/node/cluster-messages.ts';
import { createMockDeployment, type MockService } from '../../mocks/node/create-mock-service.ts';
import { StateFileError } from '../../mocks/node/state-file.ts';
import { WorkerHub } from '../../mocks/node/worker-hub.ts';
import { listDefects, resolveDefects } from '../../mocks/defects/registry.ts';
import { mockBanner } from '../mock/banner.ts';
import { isProfileName } from '../../mocks/core/profiles.ts';
import { readProfileFile } from '../profile-file.ts';
import { PublicIds } from '../../mocks/core/profile/public-ids.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';
import type { TaskIdShare } from '../../mocks/core/task-id-share.ts';
import type { Command } from '../commands.ts';
import { UsageError, numberOption } from '../options.ts';
import {
  readSecret,
  listenFailure,
  parseMockFlags,
  parseRateLimit,
  readConfig,
  replicaOption,
  reportOnce,
  workersOption,
  ADMIN_TOKEN_ENV,
  adminTokenFrom,
} from '../mock/settings.ts';
import { prepareClientReportDir, writeClientReport } from '../mock/client-report.ts';

const FIX_THE_FILE = '. Fix or move the file (a missing file starts afresh).';

const HELP = `Usage: videotask mock [options]

Runs the simulated video generation task service over HTTP.

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host ADDR           address to bind (default 127.0.0.1)
  --speed N             run the clock N times faster than real time (default 1)
  --seed N              make plans reproducible (default: random, printed); IDs too, with the same secret
  --secret-file FILE    the deployment's secret (task IDs, signed URLs): replicas with the same one answer
                        each other's tasks [VIDEOTASK_MOCK_SECRET]; default: random (kept in --state FILE)
  --secret S            the same on the command line (visible to other local users: prefer the above)
  --config FILE         JSON with extra API keys:
                        {"tokens": [{"key", "user", "group", "models", "quota"}], "replaceBuiltIn": false}
  --content-redirect    answer /content with a 302 to the temporary address instead of streaming
  --failure-rate P      probability in [0, 1] that a task fails (default 0)
  --artifact-ttl S      seconds a temporary result address works after completion (default 3600)
  --profile NAME|FILE   documented (default: the document), observed (the deployed gateway's habits),
                        or a profile FILE videotask learn wrote (answers as that deployment does)
  --clock MODE          real (default) or manual (time moves only through POST /__mock/clock/advance)
  --rate-limit N/S      per-key budget: N requests per S seconds of the mock's clock, then 429 with
                        Retry-After in real seconds (default: off)
  --family-bound        start with the second family bound to its plugin channel (type 61)
  --defect NAME         play a deliberately broken deployment (repeatable; see --list-defects)
  --list-defects        print each defect's name and what it breaks, one per line, and exit
  --admin-token-file F  require the bearer token on F's first line on the control API (/__mock/),
                        which is then reachable from anywhere (also: ${ADMIN_TOKEN_ENV}=TOKEN,
                        or --admin-token TOKEN, which every user of the machine sees in ps)
  --max-connections N   connections open at once, in all (default 10,000, or the descriptor limit
                        less 256); beyond it new ones are closed and a line says so, once per burst
  --max-connections-per-address N   the same from one address (default 1,000)
  --state FILE          keep the secret, clock, binding, forced outcomes and listing in FILE across any
                        restart, kill -9 included (created if missing; locked while in use)
  --workers N|auto      N processes serving the port (auto: one per core; default 1); control changes
                        reach every worker before their 200 (docs/replicas.md)
  --replica K/N         this mock is replica K of N behind one balancer, all with the same secret: no
                        two replicas then make the same task ID (docs/replicas.md)
  --worker-timeout S    seconds a worker may take to confirm a change or take a connection before it
                        is replaced (default 5)
  --client-report DIR   on exit, write the verdicts on the clients and their coverage to DIR as
                        client-report.json, .txt and .junit.xml (GET /__mock/client-report any time;
                        docs/client-verdicts.md)
  --no-client-verdicts  do not judge the clients (a load test that wants the last few % of speed)
  -h, --help            show this help`;

const POSITIVE = { integer: true, min: 1 } as const;

export const mockCommand: Command = {
  name: 'mock',
  async run(argv) {
    const { values } = parseMockFlags(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const port = numberOption('--port', values.port, { integer: true, min: 0, max: 65535 }) ?? 4010;
    const host = values.host ?? '127.0.0.1';
    const speed = numberOption('--speed', values.speed, { min: Number.MIN_VALUE }) ?? 1;
    const seed = numberOption('--seed', values.seed, { integer: true });
    const failureRate =
      numberOption('--failure-rate', values['failure-rate'], { min: 0, max: 1 }) ?? 0;
    const ttl = numberOption('--artifact-ttl', values['artifact-ttl'], { min: 1 });
    const workers = workersOption(values.workers);
    const replica = replicaOption(values.replica);
    const workerTimeout = numberOption('--worker-timeout', values['worker-timeout'], {
      min: 0.1,
      max: 3600,
    });
    const limits = {
      maxConnections: numberOption('--max-connections', values['max-connections'], POSITIVE),
      maxConnectionsPerAddress: numberOption(
        '--max-connections-per-address',
        values['max-connections-per-address'],
        POSITIVE,
      ),
    };
    if (values['list-defects']) {
      const defects = listDefects();
      const width = Math.max(...defects.map((d) => d.name.length));
      for (const d of defects) console.log(`${d.name.padEnd(width)}  ${d.description}`);
      return 0;
    }
    const profileFlag = values.profile ?? 'documented';
    if (profileFlag.trim() === '')
      throw new UsageError('--profile needs documented, observed or a learned profile FILE');
    const profile = isProfileName(profileFlag)
      ? profileFlag
      : readProfileFile(profileFlag, '--profile');
    const clockMode = values.clock ?? 'real';
    if (clockMode !== 'real' && clockMode !== 'manual')
      throw new UsageError(`--clock must be real or manual, got "${clockMode}"`);
    if (clockMode === 'manual' && values.speed !== undefined)
      throw new UsageError('--speed applies to the real clock only; drop it or use --clock real');
    const rateLimit =
      values['rate-limit'] === undefined ? undefined : parseRateLimit(values['rate-limit']);
    const defectNames = values.defect ?? [];
    try {
      resolveDefects(defectNames);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const admin = adminTokenFrom(values['admin-token'], values['admin-token-file'], process.env);
    const config =
      values.config === undefined
        ? { tokens: [], replaceBuiltIn: false }
        : readConfig(values.config);
    const stateFile = values.state;
    if (stateFile === '') throw new UsageError('--state needs a file name');
    const reportDir = values['client-report'];
    if (reportDir === '') throw new UsageError('--client-report needs a directory');
    const judging = values['no-client-verdicts'] !== true;
    if (!judging && reportDir !== undefined)
      throw new UsageError('--client-report needs the client verdicts: drop --no-client-verdicts');
    const options = {
      clock: { mode: clockMode, speed },
      profile,
      rateLimit,
      defects: defectNames,
      failureRate,
      artifactTtlMs: ttl === undefined ? undefined : ttl * 1000,
      contentRedirect: values['content-redirect'] ?? false,
      familyBound: values['family-bound'] ?? false,
      adminToken: admin?.token,
      tokens: config.tokens,
      replaceBuiltInTokens: config.replaceBuiltIn,
      clientVerdicts: judging,
    } as const;
    const log = (line: string) => console.error(`videotask mock: ${line}`);
    if (process.env[WORKER_ENV] === '1') {
      const { runClusterWorker } = await import('../../mocks/node/cluster-worker.ts');
      await runClusterWorker({ service: options, port, host, limits, log });
      return 0;
    }
    if (admin?.warning !== undefined) console.error(`videotask mock: warning: ${admin.warning}`);
    if (reportDir !== undefined) {
      try {
        prepareClientReportDir(reportDir);
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new UsageError(`--client-report ${reportDir}: cannot make the directory (${reason})`);
      }
    }

    const secret = readSecret(values.secret, values['secret-file']);
    const hub = workers > 1 ? new WorkerHub() : undefined;
    let deployment: ReturnType<typeof createMockDeployment>;
    try {
      deployment = createMockDeployment({
        ...options,
        seed,
        secret: secret?.value,
        observer: hub,
        requestIds: hub === undefined ? undefined : requestIdsOf('primary', workers),
        taskIdShare: hub === undefined ? replica : taskIdShareOf('primary', workers, replica),
        stateFile: stateFile === undefined ? undefined : { path: stateFile, onError: reportOnce() },
      });
    } catch (error) {
      if (!(error instanceof StateFileError)) throw error;
      console.error(
        `videotask mock: ${error.message}${error.line === undefined ? '' : FIX_THE_FILE}`,
      );
      return 2;
    }
    const { service } = deployment;

    let server: {
      readonly url: string;
      close(): Promise<void>;
      gatherObservations?: () => Promise<void>;
    };
    try {
      if (hub === undefined) server = await startMockServer({ port, host, service, limits, log });
      else {
        const { startCluster } = await import('../../mocks/node/cluster-primary.ts');
        server = await startCluster({
          workers,
          service,
          hub,
          secret: deployment.secret,
          replica,
          log,
          workerTimeoutMs: workerTimeout === undefined ? undefined : workerTimeout * 1000,
        });
      }
    } catch (error) {
      service.stateFile?.close();
      const { code, message } = error as NodeJS.ErrnoException;
      console.error(`videotask mock: ${listenFailure(code, message, port, host)}`);
      return 1;
    }
    const clock = clockMode === 'manual' ? 'manual' : `${speed}×`;
    const rate = values['rate-limit'];
    const profileLine =
      typeof profile === 'string'
        ? profile
        : `${profile.name} (learned from ${profile.target.host}, ${profileFlag})`;
    const facts = {
      profile: profileLine,
      clock,
      rate,
      defectNames,
      admin,
      secretSource: secret?.source,
    };
    const [listening, ...rest] = mockBanner(server.url, bannerView(service), facts);
    const lines =
      workers === 1
        ? rest
        : rest.map((l) => l.replace('this process only', 'this mock and its workers only'));
    const report =
      reportDir === undefined
        ? []
        : [`  client report: ${reportDir} on exit; GET /__mock/client-report any time`];
    const scale = [...workersLine(workers), ...replicaLine(replica)];
    console.log([listening, ...scale, ...report, ...lines, ...idsLine(profile)].join('\n'));

    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    let written = 0;
    if (reportDir !== undefined) {
      await server.gatherObservations?.();
      written = await reportOnExit(reportDir, service);
    }
    await server.close();
    try {
      service.stateFile?.close();
    } catch (error) {
      console.error(`videotask mock: ${(error as Error).message}`);
      return 1;
    }
    return written;
  },
};

/** Writes the client report on exit; 0, or 1 when it could not be written (said why). */
async function reportOnExit(dir: string, service: MockService): Promise<number> {
  const report = service.clientReport();
  const { violations, advice, notes } = report.counts;
  try {
    const [json, summary, junit] = await writeClientReport(dir, report);
    console.error(
      `videotask mock: client report: ${violations} violation(s), ${advice} advice, ` +
        `${notes} note(s) → ${summary} (also ${json}, ${junit})`,
    );
    return 0;
  } catch (error) {
    console.error(
      `videotask mock: could not write the client report to ${dir}: ${(error as Error).message}`,
    );
    return 1;
  }
}

/**
 * A learned task-ID form too small to carry the mock's own IDs: say what that costs before anyone
 * finds out (decisions/018).
 */
function idsLine(profile: string | LearnedProfile): string[] {
  if (typeof profile === 'string' || new PublicIds(profile.taskId.form).stateless) return [];
  return [
    `  task IDs ${profile.taskId.form}: too small a form for the mock's own, kept by this process only ` +
      '(not shared by --workers, lost on a restart)',
  ];
}

function workersLine(workers: number): string[] {
  if (workers === 1) return [];
  return [
    `  workers ${workers} on this port (node:cluster); control changes reach every worker before their 200`,
  ];
}

function replicaLine(replica: TaskIdShare | undefined): string[] {
  if (replica === undefined) return [];
  return [`  replica ${replica.index + 1} of ${replica.of}: no two replicas make the same task ID`];
}

/** The service as the banner shows it: a cluster primary without --state keeps no state file. */
function bannerView(service: MockService): MockService {
  return service.stateFile?.path === '' ? { ...service, stateFile: undefined } : service;
}
