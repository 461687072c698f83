// Child-process plumbing shared by the benchmarks: every child is tracked and killed when the
// benchmark ends, whether it ends normally, on an error, on Ctrl-C or on its watchdog.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { toldFlagError } from './cli-flags.ts';

const live = new Set<ChildProcess>();
let hooksInstalled = false;

function killAllNow(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

/** Tracks a child so that it is killed if this process exits before stopping it. */
export function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!hooksInstalled) {
    hooksInstalled = true;
    process.once('exit', killAllNow);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        killAllNow();
        process.exit(130);
      });
    }
  }
  return child;
}

/**
 * Kills the process after `seconds` whatever it is doing (children included). The timer is unref'd:
 * it never keeps a finished benchmark alive.
 */
export function watchdog(seconds: number, what: string): void {
  const timer = setTimeout(() => {
    console.error(`${what}: watchdog fired after ${seconds} s; killing children and exiting.`);
    killAllNow();
    process.exit(1);
  }, seconds * 1000);
  timer.unref();
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves when the child has exited (at once if it already has). */
export function waitForExit(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/**
 * How a child ended and all it wrote (stdout and stderr, as they came): once its pipes are closed, not
 * at its exit, which can come first and leave the end of its output unread (several wrk at once did).
 */
export function outputOf(child: ChildProcess): Promise<Exit & { output: string }> {
  let output = '';
  const take = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, output }));
  });
}

/** Sends `signal`, waits up to `graceMs`, then SIGKILLs. Returns how the child ended. */
export async function stop(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 5000,
): Promise<Exit & { killed: boolean }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return { code: child.exitCode, signal: child.signalCode, killed: false };
  }
  const exited = waitForExit(child);
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (first !== 'timeout') return { ...first, killed: false };
  child.kill('SIGKILL');
  return { ...(await exited), killed: true };
}

/** A free TCP port on 127.0.0.1 (for servers that cannot be told `--port 0`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until any HTTP answer comes back (or the child dies, or `timeoutMs` passes). */
export async function waitForHttp(
  url: string,
  timeoutMs: number,
  child?: ChildProcess,
  headers: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(
        `server exited (code ${child.exitCode}, signal ${child.signalCode}) before answering ${url}`,
      );
    }
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      await sleep(100);
    }
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms (${lastError})`);
}

const clockTicks = 100; // USER_HZ: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)).

/** CPU seconds (user + system) used so far by `pid`, from /proc; undefined where /proc is absent. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may hold spaces): state is field 3.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return (utime + stime) / clockTicks;
  } catch {
    return undefined;
  }
}

/** CPU seconds used by this process's children that have exited (cutime + cstime), from /proc. */
export function exitedChildrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[13]) + Number(rest[14])) / clockTicks;
  } catch {
    return undefined;
  }
}

/** Jiffies since boot, all cores: idle (idle + iowait) and total; undefined without /proc/stat. */
export function cpuTimes(): { idle: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { idle, total };
  } catch {
    return undefined;
  }
}

/** Share (0–100) of all cores busy over the next `ms` milliseconds, from /proc/stat; undefined without it. */
/** Cores' worth of CPU (1 = one full core) busy between two cpuTimes() readings. */
export function busyCores(
  a: { idle: number; total: number } | undefined,
  b: { idle: number; total: number } | undefined,
  cores: number,
): number | undefined {
  if (a === undefined || b === undefined || b.total === a.total) return undefined;
  return cores * (1 - (b.idle - a.idle) / (b.total - a.total));
}

export async function machineBusyPercent(ms = 1000): Promise<number | undefined> {
  const a = cpuTimes();
  await sleep(ms);
  const b = cpuTimes();
  if (a === undefined || b === undefined || b.total === a.total) return undefined;
  return 100 * (1 - (b.idle - a.idle) / (b.total - a.total));
}

/**
 * Waits (up to `maxWaitS`) until the machine is quiet: under `maxBusyPercent` of all cores busy over a
 * second. Returns the last busy share seen (what the benchmark started with).
 */
export async function waitForQuiet(
  maxBusyPercent: number,
  maxWaitS: number,
  what: string,
): Promise<number | undefined> {
  const deadline = Date.now() + maxWaitS * 1000;
  let busy = await machineBusyPercent();
  let told = false;
  while (busy !== undefined && busy > maxBusyPercent && Date.now() < deadline) {
    if (!told) {
      console.error(
        `${what}: machine ${busy.toFixed(0)}% busy; waiting up to ${maxWaitS} s ` +
          `for it to fall under ${maxBusyPercent}%…`,
      );
      told = true;
    }
    await sleep(2000);
    busy = await machineBusyPercent();
  }
  if (told)
    console.error(
      `${what}: starting with the machine ${busy === undefined ? '?' : busy.toFixed(0)}% busy.`,
    );
  return busy;
}

/**
 * Runs a benchmark's `main`, sets the exit code it returns; a wrong flag is told in one line (exit 2),
 * any other error with its stack (exit 1).
 */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (toldFlagError(error)) return;
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
    },
  );
}
