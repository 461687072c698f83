/**
 * The request script of the Prism review (run by scripts/prism-review.sh): sends every probe of
 * scripts/prism-probes*.ts where it says, and judges each answer three ways: the status it expects,
 * Prism's verdict (`sl-violations`, or an answer Prism made itself), and our own `responseProblems`.
 *
 *   npx tsx scripts/prism-requests.ts --profile documented|observed --mock URL --strict URL --lenient URL --control URL
 *
 * Prints one line per request and a JSON summary; exit 0 when every answer is as expected with no
 * response violation and no own-check problem, 1 otherwise, 2 for bad usage.
 */
import { parseArgs } from 'node:util';
import { sampleVideo } from '../mocks/core/http/media.ts';
import {
  SpecValidators,
  controlSpec,
  responseProblems,
  serviceContract,
} from '../src/spec/index.ts';
import type { Probe, Via } from './prism-probe.ts';
import { PROBES } from './prism-probes.ts';

interface Verdict {
  readonly probe: Probe;
  readonly status: number;
  readonly prismViolations: readonly string[];
  readonly requestViolations: number;
  readonly problems: readonly string[];
}

const { values } = parseArgs({
  options: {
    profile: { type: 'string' },
    mock: { type: 'string' },
    strict: { type: 'string' },
    lenient: { type: 'string' },
    control: { type: 'string' },
  },
});
const profile = values.profile;
const bases: Record<Via, string | undefined> = {
  direct: values.mock,
  strict: values.strict,
  lenient: values.lenient,
  control: values.control,
};
if (
  (profile !== 'documented' && profile !== 'observed') ||
  Object.values(bases).includes(undefined)
) {
  console.error(
    'usage: npx tsx scripts/prism-requests.ts --profile documented|observed ' +
      '--mock URL --strict URL --lenient URL --control URL',
  );
  process.exit(2);
}
const service = serviceContract().validators;
const control = new SpecValidators(controlSpec);
const ids: Record<string, string> = {};

async function send(probe: Probe): Promise<Verdict> {
  const { url, headers, body } = requestOf(probe);
  const response = await fetch(url, {
    method: probe.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? '';
  const json = /^application\/(problem\+)?json/.test(contentType) && bytes.byteLength > 0;
  const parsed: unknown = json ? JSON.parse(new TextDecoder().decode(bytes)) : bytes;
  remember(probe, parsed);
  const violations = parseViolations(response.headers.get('sl-violations'));
  return {
    probe,
    status: response.status,
    prismViolations: prismViolationsOf(probe, violations, contentType, bytes),
    requestViolations:
      violations.length - violations.filter((v) => v.startsWith('response')).length,
    problems: ownProblems(probe, { status: response.status, contentType, bytes, parsed }),
  };
}

/** Where a probe goes, with its headers (a bearer key unless `key: null`) and its body. */
function requestOf(probe: Probe): {
  url: string;
  headers: Record<string, string>;
  body: string | null;
} {
  const path = typeof probe.path === 'function' ? probe.path(ids) : probe.path;
  const headers: Record<string, string> = { ...probe.headers };
  const key = probe.key === undefined ? 'sk-mock-alice' : probe.key;
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  let body: string | null = probe.raw ?? null;
  if (probe.body !== undefined) {
    body = JSON.stringify(probe.body);
    headers['content-type'] ??= 'application/json';
  }
  return { url: `${bases[probe.via]}${path}`, headers, body };
}

/** Prism's response violations, plus an answer Prism made itself (a problem+json not through the mock). */
function prismViolationsOf(
  probe: Probe,
  violations: readonly string[],
  contentType: string,
  bytes: Uint8Array,
): string[] {
  const prismViolations = violations.filter((v) => v.startsWith('response'));
  if (contentType.startsWith('application/problem+json') && probe.via !== 'direct')
    prismViolations.push(`Prism answered itself: ${new TextDecoder().decode(bytes).slice(0, 300)}`);
  return prismViolations;
}

/** Our own checks: the answer against its operation's responses, and the bytes of a direct download. */
function ownProblems(
  probe: Probe,
  answer: { status: number; contentType: string; bytes: Uint8Array; parsed: unknown },
): string[] {
  const { status, contentType, bytes, parsed } = answer;
  const validators = service.operations().some((o) => o.operationId === probe.operationId)
    ? service
    : control;
  const problems = responseProblems(validators, probe.operationId, {
    method: probe.method,
    status,
    contentType,
    body: bytes.byteLength === 0 ? undefined : parsed,
  });
  if (probe.via === 'direct' && probe.operationId === 'getVideoContent' && status === 200)
    if (!Buffer.from(bytes).equals(Buffer.from(sampleVideo().bytes)))
      problems.push('the video bytes differ from the sample video');
  return problems;
}

function remember(probe: Probe, body: unknown): void {
  if (probe.save === undefined || body === null || typeof body !== 'object') return;
  const { id, metadata } = body as { id?: unknown; metadata?: { url?: unknown } };
  if (typeof id === 'string') ids[probe.save] = id;
  if (typeof metadata?.url === 'string' && metadata.url !== '')
    ids[`${probe.save}.url`] = metadata.url;
}

/** `sl-violations`: a JSON list of `{location: [...], severity, message}` (Prism 5). */
function parseViolations(header: string | null): string[] {
  if (header === null) return [];
  if (header.startsWith('Too many violations!')) return [`response: ${header.slice(0, 200)}`];
  const list = JSON.parse(header) as { location?: string[]; severity?: string; message?: string }[];
  return list.map((v) => `${(v.location ?? []).join('.')} ${v.severity}: ${v.message}`);
}

const verdicts: Verdict[] = [];
for (const probe of PROBES.filter((p) => p.profile === undefined || p.profile === profile)) {
  const verdict = await send(probe);
  verdicts.push(verdict);
  const wrong = verdict.status !== probe.expect;
  const bad = wrong || verdict.prismViolations.length > 0 || verdict.problems.length > 0;
  const where = `${probe.via.padEnd(7)} ${probe.operationId} ${verdict.status}`;
  console.log(`${bad ? 'FAIL' : 'ok  '} ${where}  ${probe.name}`);
  if (wrong) console.log(`     expected ${probe.expect}`);
  for (const line of [...verdict.prismViolations, ...verdict.problems]) console.log(`     ${line}`);
}
const through = (via: Via) => verdicts.filter((v) => v.probe.via === via).length;
const summary = {
  profile,
  requests: verdicts.length,
  viaPrism: { strict: through('strict'), lenient: through('lenient'), control: through('control') },
  direct: through('direct'),
  operations: new Set(verdicts.map((v) => v.probe.operationId)).size,
  unexpectedStatus: verdicts.filter((v) => v.status !== v.probe.expect).length,
  responseViolations: verdicts.reduce((n, v) => n + v.prismViolations.length, 0),
  requestViolationsOnPurpose: verdicts.reduce((n, v) => n + v.requestViolations, 0),
  ownCheckProblems: verdicts.reduce((n, v) => n + v.problems.length, 0),
};
console.log(JSON.stringify(summary));
process.exitCode =
  summary.unexpectedStatus + summary.responseViolations + summary.ownCheckProblems === 0 ? 0 : 1;
