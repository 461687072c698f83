// Three held-out deployments of the video task service, each a real node:http server written for the
// tests (issues 21, 22, 25): they implement /work/shared/service/video-task-service.md in their own ways
// and import nothing from mocks/, contracts/ or src/. Start one with `startDeployment(name, options)`,
// or from a shell with `npx tsx test/deployments/serve.ts NAME` (README.md beside this file).
import { GATEWAY_DEPARTURES, startGateway } from './gateway.ts';
import { PROBLEM_JSON_DEPARTURES, startProblemJson } from './problem-json.ts';
import { REDIRECTOR_DEPARTURES, startRedirector } from './redirector.ts';
import type { DeploymentOptions, RunningDeployment } from './support.ts';

export {
  DEFAULT_KEYS,
  FAIL_WORD,
  OUTCOME_HEADER,
  PRIMARY_MODELS,
  SECOND_FAMILY,
  type Answer,
  type DeploymentKey,
  type DeploymentOptions,
  type RunningDeployment,
} from './support.ts';

interface Deployment {
  /** One line: the habits that set it apart. */
  readonly habits: string;
  /** Its deliberate departures from documented rules, by name (all off by default). */
  readonly departures: Readonly<Record<string, string>>;
  readonly start: (options?: DeploymentOptions) => Promise<RunningDeployment>;
}

export const DEPLOYMENTS = {
  gateway: {
    habits:
      'the deployed gateway as reference-gateway-facts.md describes it: two envelopes, task_ + base62, unknown first',
    departures: GATEWAY_DEPARTURES,
    start: startGateway,
  },
  redirector: {
    habits:
      'content by 302 to a signed address; 404/409/422; X-Request-ID, X-RateLimit-*; PENDING/RUNNING; UUIDs',
    departures: REDIRECTOR_DEPARTURES,
    start: startRedirector,
  },
  'problem-json': {
    habits:
      'RFC 9457 errors; vt- + ULID; extra fields; octet-stream chunked; {models:[{name}]}; 429 task budget',
    departures: PROBLEM_JSON_DEPARTURES,
    start: startProblemJson,
  },
} as const satisfies Record<string, Deployment>;

export type DeploymentName = keyof typeof DEPLOYMENTS;
export const DEPLOYMENT_NAMES = Object.keys(DEPLOYMENTS) as DeploymentName[];

/** Starts one deployment on a real port (127.0.0.1:0 by default); `close()` stops it. */
export function startDeployment(
  name: DeploymentName,
  options: DeploymentOptions = {},
): Promise<RunningDeployment> {
  const deployment = (DEPLOYMENTS as Record<string, Deployment>)[name];
  if (deployment === undefined)
    throw new Error(
      `no test deployment "${String(name)}": there are ${DEPLOYMENT_NAMES.join(', ')}`,
    );
  return deployment.start(options);
}
