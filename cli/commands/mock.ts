import { startMockServer } from '../../mocks/node/http/server.ts';
import {
  WORKER_ENV,
  serviceRequestIdsOf,
  taskIdShareOf,
} from '../../mocks/node/cluster/messages.ts';
import { createMockDeployment, type MockService } from '../../mocks/node/create-mock-service.ts';
import { StateFileError } from '../../mocks/node/state-file/format.ts';
import { WorkerHub } from '../../mocks/node/cluster/worker-hub.ts';
import { listDefects } from '../../mocks/defects/catalog.ts';
import { mockBanner, type BannerService } from '../mock/banner.ts';
import { PublicIds } from '../../mocks/core/profile/public-ids.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';
import type { TaskIdShare } from '../../mocks/core/task-id/task-id-share.ts';
import type { Command } from '../command.ts';
import { UsageError } from '../options.ts';
import {
  ADMIN_TOKEN_ENV,
  listenFailure,
  mockNumbers,
  mockServiceSettings,
  parseMockFlags,
  readSecret,
  reportOnce,
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

export const mockCommand: Command = {
  name: 'mock',
  async run(argv) {
    const { values } = parseMockFlags(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const numbers = mockNumbers(values);
    if (values['list-defects']) {
      printDefects();
      return 0;
    }
    const settings = mockServiceSettings(values, numbers);
    const { port, host, limits } = numbers;
    const log = (line: string) => console.error(`videotask mock: ${line}`);
    if (process.env[WORKER_ENV] === '1') {
      const { runClusterWorker } = await import('../../mocks/node/cluster/worker.ts');
      await runClusterWorker({ service: settings.options, port, host, limits, log });
      return 0;
    }
    const { admin, reportDir } = settings;
    if (admin?.warning !== undefined) console.error(`videotask mock: warning: ${admin.warning}`);
    if (reportDir !== undefined) prepareReportDir(reportDir);
    const secret = readSecret(values.secret, values['secret-file']);
    const hub = numbers.workers > 1 ? new WorkerHub() : undefined;
    const deployment = openDeployment({ numbers, settings, secret, hub });
    if (deployment === undefined) return 2;
    const { service } = deployment;
    const server = await listen({ numbers, deployment, hub, log });
    if (server === undefined) return 1;
    const facts = { rate: values['rate-limit'], secretSource: secret?.source };
    console.log(bannerText(server.url, service, { numbers, settings, ...facts }));
    await stopSignal();
    return shutdown(server, service, reportDir);
  },
};

type Numbers = ReturnType<typeof mockNumbers>;
type Settings = ReturnType<typeof mockServiceSettings>;
type Deployment = ReturnType<typeof createMockDeployment>;
interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
  gatherObservations?: () => Promise<void>;
}

/** `--list-defects`: every defect a deployment can be given, with what it breaks. */
function printDefects(): void {
  const defects = listDefects();
  const width = Math.max(...defects.map((d) => d.name.length));
  for (const d of defects) console.log(`${d.name.padEnd(width)}  ${d.description}`);
}

/** Makes `--client-report DIR` now, so that a bad one fails at start, not on exit. */
function prepareReportDir(reportDir: string): void {
  try {
    prepareClientReportDir(reportDir);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`--client-report ${reportDir}: cannot make the directory (${reason})`);
  }
}

/** The deployment (the service and its state file); undefined when the state file is refused (said why). */
function openDeployment(input: {
  numbers: Numbers;
  settings: Settings;
  secret: { value: string } | undefined;
  hub: WorkerHub | undefined;
}): Deployment | undefined {
  const { numbers, settings, secret, hub } = input;
  const { workers, replica } = numbers;
  const { stateFile } = settings;
  try {
    return createMockDeployment({
      ...settings.options,
      seed: numbers.seed,
      secret: secret?.value,
      observer: hub,
      serviceRequestIds: hub === undefined ? undefined : serviceRequestIdsOf('primary', workers),
      taskIdShare: hub === undefined ? replica : taskIdShareOf('primary', workers, replica),
      stateFile: stateFile === undefined ? undefined : { path: stateFile, onError: reportOnce() },
    });
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    console.error(
      `videotask mock: ${error.message}${error.line === undefined ? '' : FIX_THE_FILE}`,
    );
    return undefined;
  }
}

/** One server, or a cluster of workers on the port; undefined when it cannot listen (said why). */
async function listen(input: {
  numbers: Numbers;
  deployment: Deployment;
  hub: WorkerHub | undefined;
  log: (line: string) => void;
}): Promise<RunningServer | undefined> {
  const { numbers, deployment, hub, log } = input;
  const { port, host, limits, workers, replica, workerTimeout } = numbers;
  const { service } = deployment;
  try {
    if (hub === undefined) return await startMockServer({ port, host, service, limits, log });
    const { startCluster } = await import('../../mocks/node/cluster/primary.ts');
    return await startCluster({
      workers,
      service,
      hub,
      secret: deployment.secret,
      replica,
      log,
      workerTimeoutMs: workerTimeout === undefined ? undefined : workerTimeout * 1000,
    });
  } catch (error) {
    service.stateFile?.close();
    const { code, message } = error as NodeJS.ErrnoException;
    console.error(`videotask mock: ${listenFailure(code, message, port, host)}`);
    return undefined;
  }
}

/** The banner `videotask mock` prints once listening, its readiness line first. */
function bannerText(
  url: string,
  service: MockService,
  input: {
    numbers: Numbers;
    settings: Settings;
    rate: string | undefined;
    secretSource: string | undefined;
  },
): string {
  const { numbers, settings } = input;
  const { profile, profileFlag, clockMode, defectNames, admin, reportDir } = settings;
  const { workers, replica, speed } = numbers;
  const profileLine =
    typeof profile === 'string'
      ? profile
      : `${profile.name} (learned from ${profile.target.host}${profile.target.basePath ?? ''}, ${profileFlag})`;
  const facts = {
    profile: profileLine,
    clock: clockMode === 'manual' ? 'manual' : `${speed}×`,
    rate: input.rate,
    defectNames,
    admin,
    secretSource: input.secretSource,
  };
  const [listening, ...rest] = mockBanner(url, bannerView(service), facts);
  const lines =
    workers === 1
      ? rest
      : rest.map((l) => l.replace('this process only', 'this mock and its workers only'));
  const report =
    reportDir === undefined
      ? []
      : [`  client report: ${reportDir} on exit; GET /__mock/client-report any time`];
  const scale = [...workersLine(workers), ...replicaLine(replica)];
  return [listening, ...scale, ...report, ...lines, ...idsLine(profile)].join('\n');
}

/** Resolves on the first SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** Writes the client report (if asked), closes the server and the state file; the exit code. */
async function shutdown(
  server: RunningServer,
  service: MockService,
  reportDir: string | undefined,
): Promise<number> {
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
}

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
function bannerView(service: MockService): BannerService {
  const { family, seed, tokens, stateFile } = service;
  return { family, seed, tokens, stateFile: stateFile?.path === '' ? undefined : stateFile };
}
