/**
 * What `videotask mock` is asked to do: its flags, the values only it takes (workers, replica, rate
 * limit, token config) and its secrets (the admin token, the shared secret), each checked with an
 * error that never shows the secret.
 */
import { availableParallelism } from 'node:os';
import type { TaskIdShare } from '../../mocks/core/task-id/task-id-share.ts';
import { tokensFromConfig } from '../../mocks/core/keys/tokens.ts';
import { isProfileName } from '../../mocks/core/profile/profile-names.ts';
import { resolveDefects } from '../../mocks/defects/catalog.ts';
import { numberOption, parseFlags, readOptionFile, UsageError } from '../options.ts';
import { readProfileFile } from '../profile-file.ts';

/** Most workers `--workers` takes: more processes than this only compete for the same cores. */
const MAX_WORKERS = 256;

/** `--workers N|auto`: how many processes serve the port (default 1: no cluster at all). */
function workersOption(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const cores = availableParallelism();
  if (raw === 'auto') return cores;
  const count = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(count >= 1 && count <= MAX_WORKERS)) {
    const auto = `auto (one per core: ${cores} here)`;
    throw new UsageError(
      `--workers must be a number of processes from 1 to ${MAX_WORKERS}, or ${auto}, got "${raw}"`,
    );
  }
  return count;
}

/** Most replicas `--replica K/N` numbers: with 256 workers each, every process keeps 2,040 plan seeds. */
const MAX_REPLICAS = 256;

/**
 * `--replica K/N`: this mock is replica K of N of one deployment (K from 1), and mints task IDs from
 * the K-th share of N (decisions/010), so replicas given distinct Ks never mint the same ID.
 */
function replicaOption(raw: string | undefined): TaskIdShare | undefined {
  if (raw === undefined) return undefined;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const [k, n] = match === null ? [Number.NaN, Number.NaN] : [Number(match[1]), Number(match[2])];
  if (!(n >= 1 && n <= MAX_REPLICAS && k >= 1 && k <= n))
    throw new UsageError(
      `--replica must be K/N, this replica's number K from 1 to N and the number of replicas N ` +
        `from 1 to ${MAX_REPLICAS} (e.g. --replica 1/2 and --replica 2/2), got "${raw}"`,
    );
  return { index: k - 1, of: n };
}

/** Prints a state file write error once per distinct message (the timer retries every second). */
export function reportOnce(): (error: Error) => void {
  let last = '';
  return (error) => {
    if (error.message === last) return;
    last = error.message;
    console.error(`videotask mock: ${error.message} (the mock keeps serving; retrying)`);
  };
}

function parseRateLimit(raw: string): { requests: number; windowMs: number } {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)s?$/.exec(raw.trim());
  if (match === null || Number(match[1]) < 1 || Number(match[2]) <= 0)
    throw new UsageError(
      `--rate-limit must look like 60/60 (60 requests per 60 seconds), got "${raw}"`,
    );
  return { requests: Number(match[1]), windowMs: Number(match[2]) * 1000 };
}

function readConfig(file: string): ReturnType<typeof tokensFromConfig> {
  const { text } = readOptionFile('--config', file);
  try {
    return tokensFromConfig(JSON.parse(text));
  } catch (error) {
    throw new UsageError(`--config ${file}: ${(error as Error).message}`);
  }
}

/** What cannot listen, said so that the user knows what to do next. */
export function listenFailure(
  code: string | undefined,
  message: string,
  port: number,
  host: string,
) {
  if (code === 'EADDRINUSE')
    return `port ${port} is in use. Pick another with --port N, or --port 0 for a free one.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot bind ${host}: use an address of this machine, e.g. --host 127.0.0.1.`;
  return `cannot listen: ${message}`;
}

export function parseMockFlags(argv: readonly string[]) {
  return parseFlags(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    speed: { type: 'string' },
    seed: { type: 'string' },
    config: { type: 'string' },
    'content-redirect': { type: 'boolean' },
    'failure-rate': { type: 'string' },
    'artifact-ttl': { type: 'string' },
    'family-bound': { type: 'boolean' },
    'admin-token': { type: 'string' },
    'admin-token-file': { type: 'string' },
    profile: { type: 'string' },
    clock: { type: 'string' },
    'rate-limit': { type: 'string' },
    defect: { type: 'string', multiple: true },
    'list-defects': { type: 'boolean' },
    state: { type: 'string' },
    'max-connections': { type: 'string' },
    'max-connections-per-address': { type: 'string' },
    secret: { type: 'string' },
    'secret-file': { type: 'string' },
    workers: { type: 'string' },
    replica: { type: 'string' },
    'worker-timeout': { type: 'string' },
    'client-report': { type: 'string' },
    'no-client-verdicts': { type: 'boolean' },
  });
}

/** The control API's admin token and where it came from (for the banner: never the token itself). */
export interface AdminToken {
  readonly token: string;
  readonly source: '--admin-token' | '--admin-token-file' | 'VIDEOTASK_ADMIN_TOKEN';
  /** Something the user should know (the token is visible on argv; the file is readable by others). */
  readonly warning?: string | undefined;
}

export const ADMIN_TOKEN_ENV = 'VIDEOTASK_ADMIN_TOKEN';

/** Visible ASCII, as a bearer token in an HTTP header needs; never shown back in an error. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/;

/**
 * The admin token from `--admin-token`, `--admin-token-file FILE` (its first line) or the environment
 * variable `VIDEOTASK_ADMIN_TOKEN`, in that order; `undefined` when none is set. Both flags at once, an
 * unreadable or empty file, or a token that cannot travel in a header are usage errors (exit 2) that
 * never include the token.
 */
function adminTokenFrom(
  flag: string | undefined,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): AdminToken | undefined {
  if (flag !== undefined && file !== undefined)
    throw new UsageError('give --admin-token or --admin-token-file, not both');
  if (flag !== undefined)
    return {
      token: checked(flag, '--admin-token'),
      source: '--admin-token',
      warning:
        `--admin-token on the command line is visible to every user of this ` +
        `machine (ps); prefer ${ADMIN_TOKEN_ENV} or --admin-token-file`,
    };
  if (file !== undefined) return fromFile(file);
  const fromEnv = env[ADMIN_TOKEN_ENV];
  if (fromEnv === undefined || fromEnv === '') return undefined;
  return { token: checked(fromEnv, ADMIN_TOKEN_ENV), source: ADMIN_TOKEN_ENV };
}

function fromFile(file: string): AdminToken {
  const { text, mode } = readOptionFile('--admin-token-file', file);
  const token = checked((text.split(/\r?\n/)[0] ?? '').trim(), `--admin-token-file ${file}`);
  const warning =
    (mode & 0o077) === 0
      ? undefined
      : `--admin-token-file ${file} is readable by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 it`;
  return { token, source: '--admin-token-file', warning };
}

function checked(token: string, where: string): string {
  if (token === '') throw new UsageError(`${where}: the admin token is empty`);
  if (!TOKEN_TEXT.test(token))
    throw new UsageError(
      `${where}: the admin token must be visible ASCII without spaces (it travels in an Authorization header)`,
    );
  return token;
}

/** The secret from --secret, --secret-file or VIDEOTASK_MOCK_SECRET (in that order), and where it came from. */
export function readSecret(
  flag: string | undefined,
  file: string | undefined,
): { value: string; source: string } | undefined {
  if (flag !== undefined && file !== undefined)
    throw new UsageError('give --secret or --secret-file, not both');
  if (flag !== undefined) {
    if (flag === '') throw new UsageError('--secret must not be empty');
    return { value: flag, source: '--secret' };
  }
  if (file !== undefined) {
    const { text } = readOptionFile('--secret-file', file);
    const value = text.replace(/\r?\n$/, '');
    if (value === '') throw new UsageError(`--secret-file ${file} is empty: put the secret in it`);
    return { value, source: `--secret-file ${file}` };
  }
  const env = process.env['VIDEOTASK_MOCK_SECRET'];
  return env === undefined || env === ''
    ? undefined
    : { value: env, source: 'VIDEOTASK_MOCK_SECRET' };
}

/** `videotask mock`'s flags as parsed. */
export type MockFlagValues = ReturnType<typeof parseMockFlags>['values'];

const POSITIVE = { integer: true, min: 1 } as const;

/** Where the mock listens, how fast its clock runs and how many processes serve: each number checked. */
export function mockNumbers(values: MockFlagValues) {
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
  return { port, host, speed, seed, failureRate, ttl, workers, replica, workerTimeout, limits };
}

/**
 * The simulated service the flags ask for (profile, clock, rate limit, defects, tokens, admin token,
 * client verdicts) and the files it keeps (`--state`, `--client-report`), each checked.
 */
export function mockServiceSettings(
  values: MockFlagValues,
  numbers: { speed: number; failureRate: number; ttl: number | undefined },
) {
  const profileFlag = values.profile ?? 'documented';
  if (profileFlag.trim() === '')
    throw new UsageError('--profile needs documented, observed or a learned profile FILE');
  const profile = isProfileName(profileFlag)
    ? profileFlag
    : readProfileFile(profileFlag, '--profile');
  const clockMode = clockOption(values);
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
    values.config === undefined ? { tokens: [], replaceBuiltIn: false } : readConfig(values.config);
  const { stateFile, reportDir, judging } = filesOption(values);
  const { speed, failureRate, ttl } = numbers;
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
  return { options, profile, profileFlag, clockMode, defectNames, admin, stateFile, reportDir };
}

/** `--clock real|manual`; `--speed` goes with the real clock only. */
function clockOption(values: MockFlagValues): 'real' | 'manual' {
  const clockMode = values.clock ?? 'real';
  if (clockMode !== 'real' && clockMode !== 'manual')
    throw new UsageError(`--clock must be real or manual, got "${clockMode}"`);
  if (clockMode === 'manual' && values.speed !== undefined)
    throw new UsageError('--speed applies to the real clock only; drop it or use --clock real');
  return clockMode;
}

/** `--state FILE`, `--client-report DIR` and whether the clients are judged at all. */
function filesOption(values: MockFlagValues) {
  const stateFile = values.state;
  if (stateFile === '') throw new UsageError('--state needs a file name');
  const reportDir = values['client-report'];
  if (reportDir === '') throw new UsageError('--client-report needs a directory');
  const judging = values['no-client-verdicts'] !== true;
  if (!judging && reportDir !== undefined)
    throw new UsageError('--client-report needs the client verdicts: drop --no-client-verdicts');
  return { stateFile, reportDir, judging };
}
