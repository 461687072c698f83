/**
 * Prism as an independent reviewer (docs/contracts.md#prism-as-an-independent-reviewer): the traffic
 * the project's own tools send to the mock, judged by a tool nobody here wrote.
 *
 *   npx tsx scripts/prism-review.ts [--fuzz-cases N] [--seed N] [--keep DIR] [--json]
 *   npx tsx scripts/prism-review.ts --har FILE [--har FILE…]
 *
 * Without --har it records, then reviews:
 *  - the contract suite: `videotask contract --har` against `videotask mock` in each profile (documented;
 *    observed with --content-redirect), the family bound, a failing prompt and the native path;
 *  - the fuzzers (test/fuzz, the same properties as `npm test` and scripts/fuzz.ts): `--fuzz-cases` core
 *    worlds in-process and a twentieth as many raw requests to the node:http host over TCP.
 * With --har it reviews those files only: any `videotask contract --har` run, against staging too.
 * Every exchange goes through Prism's router and validators (scripts/prism-judge.ts); `--keep DIR`
 * writes the recorded traffic there as HAR (`contract-<profile>.har`, `fuzz.har`).
 *
 * Exit 0: Prism objected to no answer and every contract run passed; 1 otherwise; 2 bad usage.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockChild } from '../bench/lib/mock-child.ts';
import { runMain, stop, track, waitForExit, watchdog } from '../bench/lib/processes.ts';
import type { Har, HarEntry, HarHeader } from '../contracts/har.ts';
import { TOOL } from '../contracts/tool.ts';
import { maskKey } from '../src/redaction/redactor.ts';
import { FuzzStats, type Exchange } from '../test/fuzz/oracle.ts';
import { DEFAULT_FUZZ_SEED, fuzzCore, fuzzSocket } from '../test/fuzz/runners.ts';
import { PrismJudge, type PrismVerdict } from './prism-judge.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: npx tsx scripts/prism-review.ts [--fuzz-cases N] [--seed N] [--keep DIR] [--json]\n' +
  '       npx tsx scripts/prism-review.ts --har FILE [--har FILE…]';
/** Violations listed in full; the rest are counted. */
const SHOWN = 20;

/** The mocks the contract suite runs against, and how it is asked to look at them. */
const PROFILES = [
  { name: 'documented', flags: [] },
  { name: 'observed', flags: ['--content-redirect'] },
] as const;
const CONTRACT_FLAGS = [
  ...['--api-key', 'sk-mock-vip', '--other-api-key', 'sk-mock-bob'],
  ...['--failing-prompt', 'videotask contract check [mock:fail]'],
  ...['--family-model', 'alt-video-v2', '--plugin', 'alt-video'],
  ...['--poll-initial', '0.05', '--poll-max', '0.2', '--poll-timeout', '60'],
];

interface Source {
  readonly name: string;
  readonly entries: readonly HarEntry[];
  /** What went wrong while recording it (a contract run that did not pass). */
  readonly failure?: string;
}

interface Options {
  readonly har: readonly string[];
  readonly fuzzCases: number;
  readonly seed: number;
  readonly keep?: string;
  readonly json: boolean;
}

function options(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      har: { type: 'string', multiple: true },
      'fuzz-cases': { type: 'string' },
      seed: { type: 'string' },
      keep: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const integer = (name: string, raw: string | undefined, fallback: number, min: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min)
      throw new UsageError(`${name} must be an integer ≥ ${min}`);
    return n;
  };
  return {
    har: values.har ?? [],
    fuzzCases: integer('--fuzz-cases', values['fuzz-cases'], 1500, 0),
    seed: integer('--seed', values.seed, DEFAULT_FUZZ_SEED, Number.MIN_SAFE_INTEGER),
    ...(values.keep === undefined ? {} : { keep: resolve(values.keep) }),
    json: values.json === true,
  };
}

class UsageError extends Error {}

/** One profile's contract run against its own mock, as HAR. */
async function contractTraffic(profile: (typeof PROFILES)[number], dir: string): Promise<Source> {
  const name = `contract-${profile.name}`;
  const mockFlags = ['--port', '0', '--speed', '1000', '--family-bound', '--profile', profile.name];
  const { child: mock, url } = await startMockChild(ROOT, [...mockFlags, ...profile.flags]);
  const har = join(dir, `${name}.har`);
  const args = ['bin/videotask.js', 'contract', '--base-url', url, ...CONTRACT_FLAGS];
  const run = track(
    spawn(process.execPath, [...args, '--har', har, '--report-dir', join(dir, name)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  for (const stream of [run.stdout!, run.stderr!])
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-3000)));
  const { code } = await waitForExit(run);
  await stop(mock);
  const entries = (JSON.parse(readFileSync(har, 'utf8')) as Har).log.entries;
  return code === 0
    ? { name, entries }
    : { name, entries, failure: `videotask contract exited ${code}:\n${output}` };
}

/** The fuzzers' exchanges, as HAR entries. */
async function fuzzTraffic(cases: number, seed: number): Promise<Source> {
  const entries: HarEntry[] = [];
  const stats = new FuzzStats((exchange) => entries.push(harEntryOf(exchange)));
  try {
    fuzzCore({ seed, runs: cases, stats });
    await fuzzSocket({ seed, runs: Math.ceil(cases / 20), stats });
  } catch (error) {
    return { name: 'fuzz', entries, failure: (error as Error).message };
  }
  return { name: 'fuzz', entries };
}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const TEXTUAL = /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:json|xml)|application\/x-www-form)/i;

/** A fuzzed exchange as HAR 1.2 (keys masked, as `--har` does): what the oracle saw, byte for byte. */
function harEntryOf(ex: Exchange): HarEntry {
  const headers = (record: Exchange['headers']): HarHeader[] =>
    Object.entries(record).flatMap(([name, value]) =>
      value === undefined
        ? []
        : [{ name, value: name === 'authorization' ? masked(value) : value }],
    );
  const target = `${ex.path}${ex.query === '' ? '' : `?${ex.query}`}`;
  let url: string;
  try {
    url = new URL(target, 'http://fuzz.invalid').href;
  } catch {
    url = target;
  }
  const contentType = ex.responseHeaders['content-type'] ?? '';
  const size = ex.responseBody?.byteLength ?? 0;
  const content =
    ex.responseBody === undefined || size === 0
      ? { size, mimeType: contentType }
      : TEXTUAL.test(contentType)
        ? { size, mimeType: contentType, text: utf8.decode(ex.responseBody) }
        : { size, mimeType: contentType, comment: `binary, not kept (${size} bytes)` };
  const body = ex.body === undefined ? undefined : utf8.decode(ex.body);
  return {
    startedDateTime: new Date().toISOString(),
    time: 0,
    request: {
      method: ex.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(ex.headers),
      queryString: [],
      ...(body === undefined
        ? {}
        : { postData: { mimeType: ex.headers['content-type'] ?? '', text: body } }),
      headersSize: -1,
      bodySize: ex.body?.byteLength ?? 0,
    },
    response: {
      status: ex.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(ex.responseHeaders),
      content,
      redirectURL: ex.responseHeaders['location'] ?? '',
      headersSize: -1,
      bodySize: size,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    comment: `fuzz ${ex.layer}`,
  };
}

/** `Bearer sk-…abcd`: the scheme kept, the credential masked. */
function masked(value: string): string {
  const space = value.indexOf(' ');
  return space < 0
    ? maskKey(value)
    : `${value.slice(0, space + 1)}${maskKey(value.slice(space + 1))}`;
}

function asHar(entries: readonly HarEntry[], comment: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: TOOL.name, version: TOOL.version },
      entries,
      comment,
    },
  };
}

interface Tally {
  reviewed: number;
  operations: Set<string>;
  outside: Map<string, number>;
  requestViolations: number;
  responseViolations: number;
}

/** Every entry of every source through Prism; the objections to answers, listed. */
async function review(judge: PrismJudge, sources: readonly Source[]) {
  const tallies: Record<string, Tally> = {};
  const violations: string[] = [];
  for (const source of sources) {
    const tally: Tally = {
      reviewed: 0,
      operations: new Set(),
      outside: new Map(),
      requestViolations: 0,
      responseViolations: 0,
    };
    tallies[source.name] = tally;
    for (const [index, entry] of source.entries.entries()) {
      const verdict: PrismVerdict = await judge.judge(entry);
      tally.reviewed++;
      if (verdict.operation !== undefined) tally.operations.add(verdict.operation);
      if (verdict.outside !== undefined) {
        const why = verdict.outside.replace(/ matches .*/, ' matches');
        tally.outside.set(why, (tally.outside.get(why) ?? 0) + 1);
      }
      if (verdict.request.length > 0) tally.requestViolations++;
      if (verdict.response.length === 0) continue;
      tally.responseViolations++;
      const { method, url } = entry.request;
      violations.push(
        `${source.name} #${index} (${entry.comment}) ${method} ${new URL(url).pathname} → ` +
          `${entry.response.status}: ${verdict.response.join('; ')}`,
      );
    }
  }
  return { tallies, violations };
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = options(process.argv.slice(2));
  } catch (error) {
    console.error(`prism-review: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  watchdog(900, 'prism-review');
  const judge = await PrismJudge.load();
  await judge.selfCheck();
  const work = mkdtempSync(join(tmpdir(), 'videotask-prism-'));
  try {
    const sources: Source[] = [];
    if (opts.har.length > 0) {
      for (const file of opts.har)
        sources.push({
          name: file,
          entries: (JSON.parse(readFileSync(file, 'utf8')) as Har).log.entries,
        });
    } else {
      for (const profile of PROFILES) sources.push(await contractTraffic(profile, work));
      if (opts.fuzzCases > 0) sources.push(await fuzzTraffic(opts.fuzzCases, opts.seed));
      if (opts.keep !== undefined) keep(opts.keep, sources, opts.seed);
    }
    return report(judge, sources, await review(judge, sources), opts.json);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function keep(dir: string, sources: readonly Source[], seed: number): void {
  mkdirSync(dir, { recursive: true });
  for (const source of sources) {
    const comment = `${source.name} (scripts/prism-review.ts${source.name === 'fuzz' ? `, seed ${seed}` : ''})`;
    const file = join(dir, `${source.name}.har`);
    writeFileSync(file, `${JSON.stringify(asHar(source.entries, comment), null, 2)}\n`);
    console.error(`prism-review: wrote ${file}`);
  }
}

function report(
  judge: PrismJudge,
  sources: readonly Source[],
  { tallies, violations }: Awaited<ReturnType<typeof review>>,
  json: boolean,
): number {
  const failures = sources.flatMap((s) =>
    s.failure === undefined ? [] : [`${s.name}: ${s.failure}`],
  );
  const operations = (spec: string) =>
    new Set(
      Object.values(tallies).flatMap((t) => [...t.operations].filter((o) => o.startsWith(spec))),
    );
  const summary = {
    prism: judge.version,
    sources: Object.fromEntries(
      Object.entries(tallies).map(([name, t]) => [
        name,
        {
          reviewed: t.reviewed,
          responseViolations: t.responseViolations,
          requestViolations: t.requestViolations,
          outside: Object.fromEntries(t.outside),
        },
      ]),
    ),
    operations: {
      service: `${operations('service ').size} of ${judge.operations.service.length}`,
      control: `${operations('control ').size} of ${judge.operations.control.length}`,
    },
    responseViolations: violations.length,
    failures,
  };
  if (json) console.log(JSON.stringify({ ...summary, violations }, null, 2));
  else {
    console.log(`== Prism ${judge.version} reviewed the traffic of ${sources.length} source(s)`);
    for (const [name, t] of Object.entries(summary.sources)) {
      const outside = Object.entries(t.outside).map(([why, n]) => `${n} ${why}`);
      console.log(
        `${name.padEnd(22)} ${t.reviewed} exchanges, ${t.responseViolations} answer(s) Prism objects to, ` +
          `${t.requestViolations} request(s) it objects to (on purpose)` +
          (outside.length === 0 ? '' : `; not judged: ${outside.join(', ')}`),
      );
    }
    console.log(
      `operations exercised: openapi.yaml ${summary.operations.service}, ` +
        `mock-control.yaml ${summary.operations.control}`,
    );
    for (const line of violations.slice(0, SHOWN)) console.log(`  ${line}`);
    if (violations.length > SHOWN) console.log(`  … and ${violations.length - SHOWN} more`);
    for (const failure of failures) console.log(`FAIL ${failure}`);
  }
  const ok = violations.length === 0 && failures.length === 0;
  console.error(ok ? 'prism-review: zero violations' : 'prism-review: FAILED');
  return ok ? 0 : 1;
}

runMain(main);
