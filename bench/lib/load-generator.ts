// The load generator of bench/http-throughput.ts: wrk (a C program, so on 2 cores the client is not the
// bottleneck), installed with apt-get when missing; autocannon (JavaScript, in this process) only as a
// labelled fallback, since its own cost hides part of the gap between servers.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { outputOf, track, waitForExit } from './processes.ts';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly reqPerSec: number;
  readonly bytesPerResponse: number;
  readonly latencyMeanMs: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** Answers with a status of 400 or more (wrk counts those only). */
  readonly errorStatuses: number;
}

export interface LoadSettings {
  readonly seconds: number;
  readonly connections: number;
  readonly headers: Readonly<Record<string, string>>;
}

export interface LoadGenerator {
  /** What the report says was used: `wrk 4.1.0` or `autocannon 9.0.0 (fallback: wrk missing)`. */
  readonly label: string;
  readonly kind: 'wrk' | 'autocannon';
  run(url: string, settings: LoadSettings): Promise<LoadResult>;
}

const wrkScript = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));

function wrkVersion(): string | undefined {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined) return undefined;
  return /wrk (\S+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1] ?? 'unknown version';
}

/** Installs the Debian package `wrk` (as root, or through `sudo -n`); says what it does. */
async function installWrk(): Promise<boolean> {
  const root = process.getuid?.() === 0;
  const command = root ? 'apt-get' : 'sudo';
  const args = [...(root ? [] : ['-n', 'apt-get']), 'install', '-y', 'wrk'];
  console.error(`wrk is not installed: running \`${command} ${args.join(' ')}\` (benchmark-only)…`);
  const child = track(spawn(command, args, { stdio: ['ignore', 2, 2] }));
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const exit = await waitForExit(child).catch(() => ({ code: null }));
  clearTimeout(timer);
  return exit.code === 0 && wrkVersion() !== undefined;
}

/** wrk when present or installable; else autocannon, with the reason in its label. */
export async function loadGenerator(prefer: 'wrk' | 'autocannon'): Promise<LoadGenerator> {
  if (prefer === 'autocannon') return autocannonGenerator('autocannon 9.0.0 (asked for)');
  let version = wrkVersion();
  if (version === undefined && (await installWrk())) version = wrkVersion();
  if (version !== undefined) return { label: `wrk ${version}`, kind: 'wrk', run: runWrk };
  console.error(
    'wrk could not be installed: falling back to autocannon, whose own CPU use narrows the gap it shows.',
  );
  return autocannonGenerator('autocannon 9.0.0 (FALLBACK: wrk missing, figures not comparable)');
}

async function runWrk(url: string, settings: LoadSettings): Promise<LoadResult> {
  const headerArgs = Object.entries(settings.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = [
    ...['-t1', `-c${settings.connections}`, `-d${settings.seconds}s`, '--timeout', '10s'],
    ...['-s', wrkScript, ...headerArgs, url],
  ];
  const child = track(spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  const { code, signal, output } = await outputOf(child);
  const line = /^WRK_JSON (.*)$/m.exec(output)?.[1];
  if (code !== 0 || line === undefined)
    throw new Error(`wrk failed (exit ${String(code ?? signal)}): ${output.trim()}`);
  const r = JSON.parse(line) as Record<string, number>;
  const n = (key: string): number => r[key] ?? 0;
  const seconds = n('durationUs') / 1e6;
  return {
    requests: n('requests'),
    seconds,
    reqPerSec: n('requests') / seconds,
    bytesPerResponse: n('requests') > 0 ? n('bytes') / n('requests') : 0,
    latencyMeanMs: n('meanUs') / 1000,
    latencyP50Ms: n('p50Us') / 1000,
    latencyP99Ms: n('p99Us') / 1000,
    errors: n('connect') + n('read') + n('write') + n('timeout'),
    errorStatuses: n('status'),
  };
}

function autocannonGenerator(label: string): LoadGenerator {
  return {
    label,
    kind: 'autocannon',
    run: async (url, settings) => {
      const started = performance.now();
      const result = await autocannon({
        url,
        connections: settings.connections,
        duration: settings.seconds,
        pipelining: 1,
        timeout: 10,
        headers: { ...settings.headers },
      });
      const seconds = (performance.now() - started) / 1000;
      const requests = result.requests.total;
      const statuses = Object.entries(result.statusCodeStats ?? {});
      return {
        requests,
        seconds,
        reqPerSec: requests / seconds,
        bytesPerResponse: requests > 0 ? result.throughput.total / requests : 0,
        latencyMeanMs: result.latency.mean,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        errors: result.errors + result.timeouts,
        errorStatuses: statuses.reduce(
          (sum, [code, s]) => sum + (Number(code) >= 400 ? (s?.count ?? 0) : 0),
          0,
        ),
      };
    },
  };
}
