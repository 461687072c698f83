/**
 * Prism judges recorded traffic: each exchange of a HAR 1.2 log (what `videotask contract --har` writes,
 * and what scripts/prism-review.ts makes of the fuzzers' exchanges) goes through Prism's own router and
 * validators, as its validating proxy would see it, against spec/openapi.yaml and then
 * spec/mock-control.yaml. The proxy's forwarder is replaced by one that answers what was recorded: no
 * request is sent again, so nothing drifts, binary bodies stay whole, and invalid JSON, redirects and
 * bodiless HEAD answers are judged too (the live proxy corrupts, hangs on or follows them).
 *
 * Prism (@stoplight/prism-cli, pinned in bench/peers/package.json) is not a dependency: it is installed
 * into bench/peers on first use (bench/lib/prism-server.ts).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { HarEntry, HarHeader } from '../contracts/har.ts';
import { ensurePrism } from '../bench/lib/prism-server.ts';

const SPECS = {
  service: fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url)),
  control: fileURLToPath(new URL('../spec/mock-control.yaml', import.meta.url)),
} as const;
type SpecName = keyof typeof SPECS;

/** What Prism made of one exchange. */
export interface PrismVerdict {
  /** `service GET /v1/videos/{task_id}`: the operation Prism matched, in which spec. */
  readonly operation?: string;
  /** Why Prism could not judge it (no operation of either spec matches, no answer, not a URL). */
  readonly outside?: string;
  /** Prism's objections to the request (the suite and the fuzzers send invalid ones on purpose). */
  readonly request: readonly string[];
  /** Prism's objections to the answer (errors and warnings): what the review counts. */
  readonly response: readonly string[];
}

// The parts of Prism's API used here (@stoplight/prism-http 5.x, CommonJS, untyped from here).
interface Diagnostic {
  readonly message: string;
  readonly severity: number;
  readonly path?: readonly (string | number)[];
}
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
interface PrismRequest {
  method: string;
  url: { path: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body: unknown;
}
interface PrismResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}
/** An answer, and whether the HAR kept only the start of its body (then only its status and headers count). */
interface Answer {
  readonly response: PrismResponse;
  readonly cut: boolean;
}
interface Operation {
  readonly method: string;
  readonly path: string;
}
type Forward = (
  data: { data: PrismRequest },
  ...rest: unknown[]
) => () => () => Promise<Either<Error, PrismResponse>>;
interface PrismInstance {
  request(
    input: PrismRequest,
    operations: readonly Operation[],
  ): () => Promise<
    Either<
      Error,
      { validations: { input: Diagnostic[]; output: Diagnostic[] }; resource?: Operation }
    >
  >;
}
interface PrismHttp {
  getHttpOperationsFromSpec(path: string): Promise<Operation[]>;
  createInstance(
    config: Record<string, unknown>,
    components: { logger: unknown; forward: Forward },
  ): PrismInstance;
}

/** Prism's severities: 0 error, 1 warning (an undeclared status of an error answer), 2 information. */
const WARNING = 1;
const NO_ROUTE = 'Selected route not found';
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

export class PrismJudge {
  readonly #answers = new WeakMap<PrismRequest, PrismResponse>();
  readonly #prism: PrismInstance;

  private constructor(
    prismHttp: PrismHttp,
    logger: unknown,
    readonly version: string,
    readonly operations: Readonly<Record<SpecName, readonly Operation[]>>,
  ) {
    const forward: Forward =
      ({ data }) =>
      () =>
      () => {
        const answer = this.#answers.get(data);
        return Promise.resolve(
          answer === undefined
            ? { _tag: 'Left', left: new Error('no recorded answer') }
            : { _tag: 'Right', right: answer },
        );
      };
    // What `prism proxy` (without --errors) runs: every request forwarded, both sides validated.
    const config = {
      isProxy: true,
      upstream: new URL('http://recorded.invalid'),
      errors: false,
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      mock: { dynamic: false },
    };
    this.#prism = prismHttp.createInstance(config, { logger, forward });
  }

  /** Prism from bench/peers (installed there on first use), with both specs read. */
  static async load(): Promise<PrismJudge> {
    if (!(await ensurePrism())) throw new Error('Prism could not be installed into bench/peers');
    const require = createRequire(new URL('../bench/peers/package.json', import.meta.url));
    const prismHttp = require('@stoplight/prism-http') as PrismHttp;
    const { createLogger } = require('@stoplight/prism-core') as {
      createLogger: (name: string, options: { level: string }) => unknown;
    };
    const { version } = require('@stoplight/prism-cli/package.json') as { version: string };
    const operations = {
      service: await prismHttp.getHttpOperationsFromSpec(SPECS.service),
      control: await prismHttp.getHttpOperationsFromSpec(SPECS.control),
    };
    return new PrismJudge(
      prismHttp,
      createLogger('review', { level: 'silent' }),
      version,
      operations,
    );
  }

  /** Prism's verdict on one recorded exchange. */
  async judge(entry: HarEntry): Promise<PrismVerdict> {
    if (entry.response.status === 0 || entry.response.bodySize < 0)
      return { outside: 'no answer was recorded', request: [], response: [] };
    let request: PrismRequest;
    try {
      request = requestOf(entry);
    } catch {
      return { outside: `not a URL Prism reads: ${entry.request.url}`, request: [], response: [] };
    }
    for (const spec of ['service', 'control'] as const) {
      const verdict = await this.#judgeIn(spec, request, answerOf(entry));
      if (verdict !== undefined) return verdict;
    }
    const what = `${entry.request.method} ${request.url.path}`;
    return {
      outside: `no operation of openapi.yaml or mock-control.yaml matches ${what}`,
      request: [],
      response: [],
    };
  }

  /**
   * Judges two answers that break spec/openapi.yaml (a catalog without its `data`, a status query
   * answered 418) and throws unless Prism objects to both: a reviewer that objects to nothing (another
   * Prism API, a broken forwarder) must not pass the traffic.
   */
  async selfCheck(): Promise<void> {
    const broken = [
      fakeEntry('GET', '/v1/models', 200, '{"object":"list"}'),
      fakeEntry('GET', '/v1/videos/task_x', 418, '{"error":{"message":"teapot"}}'),
    ];
    for (const entry of broken) {
      const verdict = await this.judge(entry);
      if (verdict.response.length === 0)
        throw new Error(
          `Prism ${this.version} found nothing wrong with ${entry.request.method} ` +
            `${entry.request.url} answered ${entry.response.status} ${entry.response.content.text}: ` +
            'the review would see nothing either',
        );
    }
  }

  async #judgeIn(
    spec: SpecName,
    input: PrismRequest,
    answer: Answer,
  ): Promise<PrismVerdict | undefined> {
    const request = { ...input }; // one object per attempt: the key of its recorded answer
    this.#answers.set(request, answer.response);
    const result = await this.#prism.request(request, this.operations[spec])();
    if (result._tag === 'Left') return { outside: result.left.message, request: [], response: [] };
    const { input: asked, output } = result.right.validations;
    if (asked.some((d) => d.message === NO_ROUTE)) return undefined;
    const shown = (d: Diagnostic) =>
      d.path === undefined || d.path.length === 0 ? d.message : `${d.path.join('.')}: ${d.message}`;
    const counted = (list: readonly Diagnostic[]) =>
      list.filter((d) => d.severity <= WARNING).map(shown);
    const judged = answer.cut ? output.filter((d) => d.path?.[0] !== 'body') : output;
    const resource = result.right.resource;
    return {
      ...(resource === undefined
        ? {}
        : { operation: `${spec} ${resource.method.toUpperCase()} ${resource.path}` }),
      request: counted(asked),
      response: counted(judged),
    };
  }
}

const headerRecord = (headers: readonly HarHeader[]): Record<string, string> => {
  const record: Record<string, string> = {};
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    record[key] = record[key] === undefined ? value : `${record[key]}, ${value}`;
  }
  return record;
};

/** A body as Prism's server reads it: JSON when the media type says so and it parses, else its text. */
function bodyOf(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined) return undefined;
  if (!JSON_TYPE.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The request as `prism proxy` builds it from what it receives (prism-http-server). */
function requestOf(entry: HarEntry): PrismRequest {
  const url = new URL(entry.request.url);
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  const headers = headerRecord(entry.request.headers);
  const sent = entry.request.postData?.text;
  return {
    method: entry.request.method.toLowerCase(),
    url: { path: url.pathname, query },
    headers,
    body: sent === undefined || sent === '' ? null : bodyOf(sent, headers['content-type']),
  };
}

/**
 * The answer as the proxy's forwarder reads it. A binary body the HAR kept only the size of becomes
 * empty text (Prism reads such a body as text and judges its media type and headers); a HEAD answer
 * has no body. A body the HAR kept only the start of (contracts/har.ts) is not judged.
 */
function answerOf(entry: HarEntry): Answer {
  const headers = headerRecord(entry.response.headers);
  const { text, comment } = entry.response.content;
  const body =
    entry.request.method === 'HEAD' || entry.response.status === 204
      ? undefined
      : (bodyOf(text, headers['content-type']) ?? '');
  const cut = text !== undefined && /^the first \d+ of \d+ bytes/.test(comment ?? '');
  return { response: { statusCode: entry.response.status, headers, body }, cut };
}

function fakeEntry(method: string, path: string, status: number, body: string): HarEntry {
  const json = { name: 'content-type', value: 'application/json' };
  return {
    startedDateTime: new Date(0).toISOString(),
    time: 0,
    request: {
      method,
      url: `http://recorded.invalid${path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'authorization', value: 'Bearer sk-…test' }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [json],
      content: { size: body.length, mimeType: json.value, text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    comment: 'the review checking itself',
  };
}
