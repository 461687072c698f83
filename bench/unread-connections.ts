// Connections that never read their answer, against `videotask mock` with its default limits: a flood
// of clients that each send half a request and then neither send nor read anything more, spread over
// several loopback addresses (127.0.0.2, .3, …), while a probe on 127.0.0.1 asks `GET /v1/models` on a
// new connection every 250 ms. Sampled every second: the mock's open sockets (/proc/PID/fd), its RSS,
// the probe's answers. Reported: the peak, how long until the mock is back to its idle sockets, what
// the probe got meanwhile, and the mock's log lines about refused connections.
//
//   npx tsx bench/unread-connections.ts [--connections 12000] [--addresses 12] [--max-seconds 90]
//                                       [--out bench/results/unread-connections.json]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, positive } from './lib/cli-numbers.ts';
import { authHeaders } from './lib/mock-api.ts';
import { runMain, sleep, stop, track, watchdog } from './lib/processes.ts';
import { fixed, machine, table, writeJson } from './lib/report.ts';

const cli = fileURLToPath(new URL('../bin/videotask.js', import.meta.url));

const usage = 'Usage: npx tsx bench/unread-connections.ts [--connections N] [--addresses N]';

function config() {
  const values = benchFlags(
    { name: 'unread-connections', usage },
    {
      connections: { type: 'string', default: '12000' },
      addresses: { type: 'string', default: '12' },
      'max-seconds': { type: 'string', default: '90' },
    },
  );
  return {
    connections: count('connections', values.connections),
    addresses: Math.min(250, count('addresses', values.addresses)),
    maxSeconds: positive('max-seconds', values['max-seconds']),
    out: pathToFileURL(resolve(values.out)),
  };
}

function socketsOf(pid: number): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) count++;
    } catch {
      // closed while listing
    }
  }
  return count;
}

function rssMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib ?? 0) / 1024;
}

/** Opens a connection from `from`, writes half a request, and never reads or writes again. */
function silent(port: number, from: string): Promise<Socket | undefined> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      socket.write(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
      done(socket);
    });
    socket.pause();
    socket.on('error', () => done(undefined));
  });
}

interface Sample {
  second: number;
  sockets: number;
  rssMiB: number;
  probeOk: number;
  probeFailed: number;
  probeWorstMs: number;
}

/** A request to `/v1/models` every 250 ms, on a connection of its own, until stopped. */
function startProbe(url: string): {
  probe: { ok: number; failed: number; worstMs: number };
  stop: () => Promise<void>;
} {
  const probe = { ok: 0, failed: 0, worstMs: 0 };
  let probing = true;
  const probeLoop = (async () => {
    while (probing) {
      const started = performance.now();
      try {
        const r = await fetch(`${url}/v1/models`, {
          headers: { ...authHeaders, connection: 'close' },
          signal: AbortSignal.timeout(5000),
        });
        await r.arrayBuffer();
        if (r.status === 200) probe.ok++;
        else probe.failed++;
      } catch {
        probe.failed++;
      }
      probe.worstMs = Math.max(probe.worstMs, performance.now() - started);
      await sleep(250);
    }
  })();
  return {
    probe,
    stop: async () => {
      probing = false;
      await probeLoop;
    },
  };
}

/** The silent clients, 200 at a time, spread over `addresses` loopback addresses. */
async function floodOf(port: number, cfg: Cfg): Promise<(Socket | undefined)[]> {
  const flood: (Socket | undefined)[] = [];
  const started = Date.now();
  for (let i = 0; i < cfg.connections; i += 200) {
    const batch = Array.from({ length: Math.min(200, cfg.connections - i) }, (_, j) =>
      silent(port, `127.0.0.${2 + ((i + j) % cfg.addresses)}`),
    );
    flood.push(...(await Promise.all(batch)));
  }
  const opened = flood.filter((s) => s !== undefined).length;
  console.error(`flood: ${opened} of ${cfg.connections} connected in ${Date.now() - started} ms`);
  return flood;
}

/** A sample a second until the mock's sockets are back to idle (and 3 s more), or `maxSeconds`. */
async function watchDrain(
  pid: number,
  idleSockets: number,
  cfg: Cfg,
  probe: { ok: number; failed: number; worstMs: number },
): Promise<{ samples: Sample[]; drainedAt: number | undefined; peak: number }> {
  const samples: Sample[] = [];
  let drainedAt: number | undefined;
  let peak = 0;
  for (let second = 1; second <= cfg.maxSeconds; second++) {
    await sleep(1000);
    const sockets = socketsOf(pid);
    peak = Math.max(peak, sockets);
    samples.push({
      second,
      sockets,
      rssMiB: rssMiB(pid),
      probeOk: probe.ok,
      probeFailed: probe.failed,
      probeWorstMs: probe.worstMs,
    });
    if (drainedAt === undefined && second > 2 && sockets <= idleSockets + 2) drainedAt = second;
    if (drainedAt !== undefined && second >= drainedAt + 3) break;
  }
  return { samples, drainedAt, peak };
}

function samplesTable(samples: readonly Sample[], drainedAt: number | undefined): string {
  const shown = samples.filter(
    (s) => s.second <= 5 || s.second % 5 === 0 || s.second === drainedAt,
  );
  return table([
    ['second', 'mock sockets', 'RSS MiB', 'probe ok', 'probe failed', 'probe worst ms'],
    ...shown.map((s) => [
      String(s.second),
      String(s.sockets),
      fixed(s.rssMiB),
      String(s.probeOk),
      String(s.probeFailed),
      fixed(s.probeWorstMs),
    ]),
  ]);
}

type Cfg = NonNullable<ReturnType<typeof config>>;

async function main(): Promise<number> {
  const cfg = config();
  watchdog(cfg.maxSeconds + 120, 'unread-connections');
  const host = machine();
  const mock = track(spawn(process.execPath, [cli, 'mock', '--port', '0'], { stdio: 'pipe' }));
  let stdout = '';
  let stderr = '';
  mock.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  mock.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  while (!/listening on (http:\S+)/.test(stdout)) await sleep(50);
  const url = /listening on (http:\S+)/.exec(stdout)![1]!;
  const port = Number(new URL(url).port);
  const pid = mock.pid!;
  const idleSockets = socketsOf(pid);

  const { probe, stop: stopProbing } = startProbe(url);

  const flood = await floodOf(port, cfg);
  const { samples, drainedAt, peak } = await watchDrain(pid, idleSockets, cfg, probe);
  await stopProbing();
  for (const s of flood) s?.destroy();
  await stop(mock, 'SIGTERM', 10_000);

  const logLines = stderr.split('\n').filter((l) => l.includes('connection'));
  console.log(
    `\nunread connections: ${cfg.connections} clients over ${cfg.addresses} ` +
      `addresses, half a request each, never read; ` +
      `probe on 127.0.0.1 every 250 ms; load average ${host.loadAverage1m}\n`,
  );
  console.log(samplesTable(samples, drainedAt));
  console.log(
    `\nidle sockets ${idleSockets}; peak ${peak}; back to idle after ${drainedAt ?? 'never (within the run)'} s`,
  );
  console.log(`probe: ${probe.ok} ok, ${probe.failed} failed, worst ${fixed(probe.worstMs)} ms`);
  console.log(`mock's log:\n${logLines.map((l) => `  ${l}`).join('\n') || '  (nothing)'}`);
  writeJson(cfg.out, {
    benchmark: 'unread-connections',
    date: new Date().toISOString(),
    machine: host,
    config: { connections: cfg.connections, addresses: cfg.addresses },
    connected: flood.filter((s) => s !== undefined).length,
    idleSockets,
    peakSockets: peak,
    drainedAfterS: drainedAt,
    probe,
    logLines,
    samples,
  });
  return drainedAt !== undefined && probe.failed === 0 ? 0 : 1;
}

runMain(main);
