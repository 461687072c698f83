import { join } from 'node:path';
import { writePrivateFile, writeReports } from '../../contracts/report-files.ts';
import { parseFaultRule, FAULTS, FAULT_NAMES, type FaultRule } from '../../proxy/faults.ts';
import { startProxy, type RunningProxy } from '../../proxy/proxy-server.ts';
import type { Command } from '../command.ts';
import { prepareClientReportDir, writeClientReport } from '../mock/client-report.ts';
import { listenFailure } from '../mock/settings.ts';
import { numberOption, parseFlags, secondsOption, UsageError } from '../options.ts';

const HELP = `Usage: videotask proxy --upstream URL [options]

Stands between clients and a deployment (staging, production): forwards every request and its answer
unchanged (streamed both ways), judges the deployment by the contract suite's checks and each client
by the client rules on that same traffic, and injects the documented faults on request. It sends no
request of its own, so it creates no task. docs/proxy.md.

Options:
  --upstream URL        the deployment, http(s)://host[:port][/base-path] (its base path is kept)
  --port N              port to listen on (default 4020; 0 picks a free one)
  --host ADDR           address to bind (default 127.0.0.1)
  --report-dir DIR      write contract-report.json, contract-junit.xml and client-report.json, .txt,
                        .junit.xml to DIR on SIGINT/SIGTERM and every --report-every seconds (atomically)
  --report-every S      seconds between report writes (default 60; needs --report-dir)
  --inject NAME[=RATE]  inject a documented fault (repeatable): a share RATE (0–1) of the requests it
                        applies to, and always a request whose prompt carries [proxy:NAME]:
${FAULT_NAMES.map((f) => `                          ${f.padEnd(17)}${FAULTS[f].section} ${FAULTS[f].what}`).join('\n')}
  --unknown-for S       how long an injected unknown lasts for its task (default 10)
  --upstream-timeout S  the longest the upstream may stay silent before a 504 (default 60)
  --strict              assumption-based checks fail instead of warn
  --max-tasks N         tasks remembered (default 10,000; the least recently seen forgotten first)
  --task-idle S         a task unseen this long is forgotten (default 3600)
  --max-callers N       keys judged at once (default 200); one unseen for --task-idle makes room for a
                        new one, else further callers are forwarded and counted, not judged
  --client-window S     the client report judges windows of S seconds (default 86400): each starts
                        afresh, the one before kept in the report (previousWindow)
  -h, --help            show this help

Control (loopback only, Host checked, no CORS): GET /__proxy/contract-report, /__proxy/client-report,
/__proxy/status; POST /__proxy/reports (Content-Type: application/json) writes the reports now.`;

function parseProxyFlags(argv: readonly string[]) {
  return parseFlags(argv, {
    upstream: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'report-dir': { type: 'string' },
    'report-every': { type: 'string' },
    inject: { type: 'string', multiple: true },
    'unknown-for': { type: 'string' },
    'upstream-timeout': { type: 'string' },
    strict: { type: 'boolean' },
    'max-tasks': { type: 'string' },
    'task-idle': { type: 'string' },
    'max-callers': { type: 'string' },
    'client-window': { type: 'string' },
  });
}

type Values = ReturnType<typeof parseProxyFlags>['values'];

/** The `--inject` rules, one per fault (a fault named twice is a mistake worth saying). */
function faultRules(specs: readonly string[] | undefined): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const spec of specs ?? []) {
    const rule = parseFaultRule(spec);
    if (typeof rule === 'string') throw new UsageError(rule);
    if (rules.some((r) => r.fault === rule.fault))
      throw new UsageError(`--inject ${rule.fault} is given twice: give each fault once`);
    rules.push(rule);
  }
  return rules;
}

function settingsOf(values: Values) {
  if (values.upstream === undefined)
    throw new UsageError(
      'give the deployment to stand in front of: --upstream https://staging.example.com',
    );
  const reportDir = values['report-dir'];
  if (values['report-every'] !== undefined && reportDir === undefined)
    throw new UsageError('--report-every needs --report-dir DIR (where to write the reports)');
  const count = (flag: string, raw: string | undefined) =>
    numberOption(flag, raw, { integer: true, min: 1 });
  return {
    upstream: values.upstream,
    port: numberOption('--port', values.port, { integer: true, min: 0, max: 65_535 }) ?? 4020,
    host: values.host ?? '127.0.0.1',
    reportDir,
    reportEveryMs: secondsOption('--report-every', values['report-every']) ?? 60_000,
    inject: faultRules(values.inject),
    unknownForMs: secondsOption('--unknown-for', values['unknown-for']),
    upstreamTimeoutMs: secondsOption('--upstream-timeout', values['upstream-timeout']),
    strict: values.strict === true,
    clientWindowMs: secondsOption('--client-window', values['client-window']),
    limits: {
      ...optional('maxTasks', count('--max-tasks', values['max-tasks'])),
      ...optional('maxCallers', count('--max-callers', values['max-callers'])),
      ...optional('idleMs', secondsOption('--task-idle', values['task-idle'])),
    },
  };
}

const optional = <K extends string>(key: K, value: number | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, number>>;

const log = (line: string) => console.error(`videotask proxy: ${line}`);

export const proxyCommand: Command = {
  name: 'proxy',
  async run(argv) {
    const { values } = parseProxyFlags(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const settings = settingsOf(values);
    const { reportDir } = settings;
    if (reportDir !== undefined) prepare(reportDir);
    let proxy: RunningProxy | undefined;
    const writer = reportDir === undefined ? undefined : new ReportWriter(reportDir, () => proxy);
    try {
      proxy = await startProxy({ ...settings, log, writeReports: async () => writer?.write() });
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      const { code, message } = error as NodeJS.ErrnoException;
      log(listenFailure(code, message, settings.port, settings.host));
      return 1;
    }
    console.log(banner(proxy, settings));
    const timer =
      writer === undefined
        ? undefined
        : setInterval(() => void writer.write(), settings.reportEveryMs);
    const signal = await stopSignal();
    if (timer !== undefined) clearInterval(timer);
    log(`stopping (${signal})`);
    const written = await writer?.write();
    await proxy.close();
    if (written !== undefined) log(`reports written: ${written.join(', ')}`);
    return written === undefined && writer !== undefined ? 1 : 0;
  },
};

function banner(proxy: RunningProxy, settings: ReturnType<typeof settingsOf>): string {
  const faults = settings.inject.map((r) =>
    r.rate === 0 ? `${r.fault} (by tag)` : `${r.fault} ${r.rate}`,
  );
  return [
    `videotask proxy listening on ${proxy.url}`,
    `  upstream: ${proxy.upstream} (every request forwarded; the proxy sends none of its own)`,
    `  reports: GET ${proxy.url}/__proxy/contract-report, ${proxy.url}/__proxy/client-report` +
      (settings.reportDir === undefined ? '' : `; written to ${settings.reportDir}`),
    ...(faults.length === 0 ? [] : [`  injecting: ${faults.join(', ')}`]),
  ].join('\n');
}

/** Makes `--report-dir` now, so that a bad one fails at start, not after a day of traffic. */
function prepare(dir: string): void {
  try {
    prepareClientReportDir(dir);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`--report-dir ${dir}: cannot make the directory (${reason})`);
  }
}

/** Writes both reports, one write at a time (a timer's write and the signal's never interleave). */
class ReportWriter {
  #last: Promise<string[] | undefined> = Promise.resolve(undefined);

  constructor(
    readonly dir: string,
    readonly proxy: () => RunningProxy | undefined,
  ) {}

  write(): Promise<string[] | undefined> {
    this.#last = this.#last.then(() => this.#writeNow());
    return this.#last;
  }

  async #writeNow(): Promise<string[] | undefined> {
    const proxy = this.proxy();
    if (proxy === undefined) return undefined;
    try {
      const contract = proxy.contractReport();
      const files = writeReports(contract, this.dir);
      // Owner-only, as the contract report: both name the deployment and quote what it answered.
      files.push(...(await writeClientReport(this.dir, proxy.clientReport(), { mode: 0o600 })));
      files.push(
        writePrivateFile(
          join(this.dir, 'proxy-status.json'),
          `${JSON.stringify(proxy.status(), null, 2)}\n`,
        ),
      );
      return files;
    } catch (error) {
      log(
        `could not write the reports to ${this.dir}: ${(error as Error).message} (still serving)`,
      );
      return undefined;
    }
  }
}

/** Resolves with the first SIGINT or SIGTERM. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
