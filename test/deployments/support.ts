// The plumbing the held-out test deployments share: options, the HTTP server's life, bounded bodies,
// the video bytes, a seeded random source, Range parsing and the §2.1 field types. What each
// deployment answers (routes, codes, bodies, timing) is its own, in its own file. Only `node:` modules
// are imported here: the deployments never see mocks/, contracts/ or src/.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Models every deployment serves (their IDs are the project's defaults, so `--model` can be left out). */
export const PRIMARY_MODELS: readonly string[] = ['video-pro-v1', 'video-lite-v1'];
/** §1: the second family's model IDs. */
export const SECOND_FAMILY: readonly string[] = [
  'alt-video-v2',
  'alt-video-v2-fast',
  'alt-video-v2.5',
];

/** An API key of one user and the models its token may use (§5: token permissions). */
export interface DeploymentKey {
  readonly key: string;
  readonly user: string;
  readonly models: readonly string[];
  /** The user's group (the gateway names it in its routing errors); default `default`. */
  readonly group?: string;
  /** The user's quota is used up: every submission is refused (each deployment in its own words). */
  readonly quotaExhausted?: boolean;
}

/**
 * A model the gateway has configured without a price (its error table's `model_price_error` row); the
 * other deployments do not know it.
 */
export const UNPRICED_MODEL = 'video-draft-v1';

/**
 * alice may use every model, the second family included (once it is bound); bob the primary models
 * only. Test keys, known to anyone who reads this file: they open nothing but these deployments.
 */
export const DEFAULT_KEYS: readonly DeploymentKey[] = [
  {
    key: 'sk-deploy-alice-3f9c2a7e51d0',
    user: 'alice',
    models: [...PRIMARY_MODELS, ...SECOND_FAMILY, UNPRICED_MODEL],
  },
  { key: 'sk-deploy-bob-8d41b6c07e2f', user: 'bob', models: PRIMARY_MODELS },
];

/**
 * A task fails when its prompt holds the word `fail` (so the mock's `[mock:fail]` prompt fails here
 * too) or when its submission carries `X-Test-Outcome: fail`. Each deployment words the failure its
 * own way. The gateway knows two more outcomes: `upstream-429` (the upstream refuses the submission
 * 429) and `content-502` (the task completes, but its video cannot be fetched from the upstream).
 */
export const FAIL_WORD = /\bfail\b/i;
export const OUTCOME_HEADER = 'x-test-outcome';

/** The outcome a submission asks for with `X-Test-Outcome` (lowercased), if any. */
export const outcomeOf = (request: IncomingMessage): string | undefined =>
  header(request, OUTCOME_HEADER)?.trim().toLowerCase();

export function wantsFailure(prompt: string, request: IncomingMessage): boolean {
  return FAIL_WORD.test(prompt) || outcomeOf(request) === 'fail';
}

export interface DeploymentOptions {
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * How much faster than its own timing the deployment runs (default 1: tasks take tens of seconds, as
   * a real one's do). 20 makes every task of every deployment end within about 1–4 s.
   */
  readonly speed?: number;
  /** Default DEFAULT_KEYS. */
  readonly keys?: readonly DeploymentKey[];
  /**
   * The second family's plugin bound to its video channel (§9 step 1). Default false: the state §1
   * describes (configured, not listed, not served).
   */
  readonly familyBound?: boolean;
  /** The name under which the task plugin declares its native path (§4.5); default `alt-video`. */
  readonly plugin?: string;
  /** Deliberate departures from the document, by name (each deployment lists its own). Default none. */
  readonly departures?: readonly string[];
  /** Seeds the deployment's random choices (IDs, timing): one seed, one run. Default: random. */
  readonly seed?: number;
  /** Told of every answer once it is sent (a test counts what the deployment did). */
  readonly onAnswer?: (answer: Answer) => void;
  /** redirector: requests per key per window before a 429 (default 1200 per 60 s, real time). */
  readonly rateLimit?: { readonly requests: number; readonly windowMs: number };
  /** problem-json: tasks per key per window before a 429 on submission (default 10 per 60 s). */
  readonly submissionBudget?: { readonly tasks: number; readonly windowMs: number };
}

/** One answer a deployment sent. */
export interface Answer {
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
}

/** A deployment listening on a real port. */
export interface RunningDeployment {
  readonly name: string;
  /** `http://127.0.0.1:PORT`, the base URL (no `/v1`). */
  readonly url: string;
  readonly keys: readonly DeploymentKey[];
  readonly departures: readonly string[];
  close(): Promise<void>;
}

/** The options every deployment reads, with their defaults applied and checked. */
export interface Settings {
  readonly host: string;
  readonly port: number;
  readonly speed: number;
  readonly keys: readonly DeploymentKey[];
  readonly familyBound: boolean;
  readonly plugin: string;
  readonly departures: ReadonlySet<string>;
  readonly random: () => number;
  readonly options: DeploymentOptions;
}

/** Applies the defaults; a departure the deployment does not have is an error naming those it has. */
export function settingsOf(
  name: string,
  options: DeploymentOptions,
  departures: Readonly<Record<string, string>>,
): Settings {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new Error(`${name}: speed must be a positive number, got ${speed}`);
  const plugin = options.plugin ?? 'alt-video';
  if (!/^[A-Za-z0-9._-]+$/.test(plugin))
    throw new Error(`${name}: plugin must be one path segment, got "${plugin}"`);
  const keys = options.keys ?? DEFAULT_KEYS;
  if (new Set(keys.map((k) => k.key)).size !== keys.length || keys.some((k) => k.key === ''))
    throw new Error(`${name}: each key must be a distinct, non-empty string`);
  for (const departure of options.departures ?? [])
    if (!(departure in departures))
      throw new Error(
        `${name} has no departure "${departure}"; it has: ${Object.keys(departures).join(', ')}`,
      );
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    speed,
    keys,
    familyBound: options.familyBound ?? false,
    plugin,
    departures: new Set(options.departures ?? []),
    random: seededRandom(options.seed ?? randomInt(2 ** 31)),
    options,
  };
}

/** mulberry32: a small, seedable source of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A whole number of milliseconds in [min, max], of the deployment's own timing scaled by `speed`. */
export function duration(s: Settings, [min, max]: readonly [number, number]): number {
  return (min + s.random() * (max - min)) / s.speed;
}

/** `length` characters drawn from `alphabet`. */
export function randomText(s: Settings, alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(s.random() * alphabet.length)];
  return text;
}

export const unix = (ms: number): number => Math.floor(ms / 1000);

/** The video every deployment delivers: the project's sample MP4 (ISO BMFF `ftyp`), read as a file. */
export const VIDEO: Buffer = readFileSync(new URL('../../mocks/media/sample.mp4', import.meta.url));

export type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

/**
 * Listens on a real port and stops by itself: the server does not keep the process alive, and
 * `close` drops every connection. A handler that throws answers a bare 500, never a stack trace.
 */
export async function listen(
  name: string,
  s: Settings,
  handler: (origin: string) => Handler,
): Promise<RunningDeployment> {
  let handle: Handler = () => undefined;
  const server = createServer((request, response) => {
    const { onAnswer } = s.options;
    if (onAnswer !== undefined)
      response.once('finish', () =>
        onAnswer({
          method: request.method ?? '',
          path: (request.url ?? '').split('?')[0]!,
          status: response.statusCode,
          headers: response.getHeaders(),
        }),
      );
    Promise.resolve(handle(request, response)).catch(() => {
      if (response.headersSent) return void response.destroy();
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"error":"internal error"}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(s.port, s.host, resolve);
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://${s.host.includes(':') ? `[${s.host}]` : s.host}:${port}`;
  handle = handler(url);
  return {
    name,
    url,
    keys: s.keys,
    departures: [...s.departures],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request body, or `too-large` past `limit` bytes (the rest is not read; answer, then close). */
export async function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** One header's value (the first, if repeated). */
export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The key of `Authorization: Bearer <key>` (§5), if one of the deployment's keys. */
export function callerOf(s: Settings, request: IncomingMessage): DeploymentKey | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
  return match === null ? undefined : s.keys.find((k) => k.key === match[1]);
}

/** The media type of a Content-Type, lowercased, without parameters. */
export const mediaType = (value: string | undefined): string =>
  (value ?? '').split(';')[0]!.trim().toLowerCase();

/** Sends a whole body with its length; HEAD sends the headers only. */
export function send(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: string | Buffer = '',
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { ...headers, 'content-length': bytes.byteLength });
  response.end(request.method === 'HEAD' ? undefined : bytes);
}

/** A `Range: bytes=…` header against `size` bytes: the one range asked, whole, or unsatisfiable. */
export function byteRange(
  value: string | undefined,
  size: number,
): { readonly start: number; readonly end: number } | 'whole' | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec((value ?? '').trim());
  // No header, several ranges, or another unit: the whole video (RFC 9110 §14.2 lets a server ignore it).
  if (match === null || (match[1] === '' && match[2] === '')) return 'whole';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

/**
 * Sends the video, honouring one `Range` (206, or 416 via `unsatisfiable`) and answering HEAD with the
 * GET's headers.
 */
export function sendVideo(
  request: IncomingMessage,
  response: ServerResponse,
  headers: Record<string, string | number>,
  unsatisfiable: () => void,
): void {
  const range = byteRange(header(request, 'range'), VIDEO.byteLength);
  if (range === 'unsatisfiable') return unsatisfiable();
  if (range === 'whole')
    return send(request, response, 200, { ...headers, 'accept-ranges': 'bytes' }, VIDEO);
  send(
    request,
    response,
    206,
    {
      ...headers,
      'accept-ranges': 'bytes',
      'content-range': `bytes ${range.start}-${range.end}/${VIDEO.byteLength}`,
    },
    VIDEO.subarray(range.start, range.end + 1),
  );
}

/** A problem with one §2.1 field of a submission: where, and what is wrong. */
export interface FieldProblem {
  /** `prompt`, `metadata.duration`, … */
  readonly field: string;
  readonly problem: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const TYPES: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: isObject,
  array: Array.isArray,
  'string[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
};
/** §2.1's fields and the known keys of `metadata`, with their documented types. */
const FIELDS: readonly [string, string][] = [
  ['model', 'string'],
  ['prompt', 'string'],
  ['image', 'string'],
  ['images', 'string[]'],
  ['seconds', 'string'],
  ['size', 'string'],
  ['metadata', 'object'],
];
const METADATA: readonly [string, string][] = [
  ['duration', 'number'],
  ['resolution', 'string'],
  ['ratio', 'string'],
  ['generate_audio', 'boolean'],
  ['content', 'array'],
];

/**
 * What breaks §2.1 in a submission body: a required field missing (`model`, `prompt`), a field of the
 * wrong type, an empty or blank prompt (§7), a ratio not of the form `<w>:<h>`. Each deployment
 * decides the order, the status and the words of its refusal.
 */
export function submissionProblems(body: unknown): FieldProblem[] {
  if (!isObject(body)) return [{ field: '', problem: 'the body must be a JSON object' }];
  const problems: FieldProblem[] = [];
  const typed = (object: Record<string, unknown>, fields: readonly [string, string][], at = '') => {
    for (const [name, type] of fields)
      if (object[name] !== undefined && !TYPES[type]!(object[name]))
        problems.push({
          field: `${at}${name}`,
          problem: `must be ${type === 'array' ? 'an array' : `a ${type}`}`,
        });
  };
  for (const name of ['model', 'prompt'])
    if (body[name] === undefined) problems.push({ field: name, problem: 'is required' });
  typed(body, FIELDS);
  if (typeof body['model'] === 'string' && body['model'].trim() === '')
    problems.push({ field: 'model', problem: 'must not be empty' });
  if (typeof body['prompt'] === 'string' && body['prompt'].trim() === '')
    problems.push({ field: 'prompt', problem: 'must not be empty' });
  const metadata = body['metadata'];
  if (isObject(metadata)) {
    typed(metadata, METADATA, 'metadata.');
    const ratio = metadata['ratio'];
    if (typeof ratio === 'string' && !/^\d+:\d+$/.test(ratio))
      problems.push({ field: 'metadata.ratio', problem: 'must have the form <w>:<h>' });
  }
  return problems;
}

/**
 * What the second family refuses in `metadata.content` (§2.1): items that are not `http(s)` URLs to
 * read, `asset://` references included. Item shape is not shown: a string, or an object holding one.
 */
export function contentProblems(body: Record<string, unknown>): FieldProblem[] {
  const content = isObject(body['metadata']) ? body['metadata']['content'] : undefined;
  if (!Array.isArray(content)) return [];
  return content.flatMap((item: unknown, i) => {
    const urls =
      typeof item === 'string'
        ? [item]
        : (JSON.stringify(item ?? null).match(/"[a-z][a-z0-9+.-]*:\/\/[^"]*"/gi) ?? []);
    const bad = urls.map((u) => u.replace(/^"|"$/g, '')).find((u) => !/^https?:\/\/[^/]+/i.test(u));
    return bad === undefined
      ? []
      : [
          {
            field: `metadata.content[${i}]`,
            problem: `is not an http(s) URL: ${bad.slice(0, 60)}`,
          },
        ];
  });
}

/** Marks a body that is not JSON at all. */
export const NOT_JSON = Symbol('not JSON');

/** The body parsed as JSON, or NOT_JSON. */
export function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return NOT_JSON;
  }
}

export { isObject };
