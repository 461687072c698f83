// How the reference clients of the client-verdict tests reach the mock: in-process (the service core,
// as the msw host calls it) or over real HTTP (a node:http host, or a `videotask mock` process). A
// client "waits" by moving the mock's clock, manual or real (a real clock at --speed N also runs on by
// itself while the client works): a wait of W mock ms is what a client sleeping W ÷ N real ms makes.
import type { ClientReport } from '../../mocks/index.ts';
import type { MockService } from '../../mocks/index.ts';

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** The answer never arrived (scenario `lost-answer`: dropped, or the connection failed). */
  readonly lost: boolean;
}

export interface CallOptions {
  /** The API key; `null` sends no Authorization header. Default: the wire's. */
  readonly key?: string | null | undefined;
  /** Sent as JSON with `Content-Type: application/json` (unless `headers` set another). */
  readonly body?: unknown;
  /** Sent as is. */
  readonly raw?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export interface Wire {
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Moves the mock's clock by `ms` mock ms: how a test client "waits" (see the file's comment). */
  advance(ms: number): Promise<void>;
  /** The clock's speed (1 on a manual clock): a client waits `Retry-After` × 1000 × speed mock ms. */
  readonly speed: number;
  report(): Promise<ClientReport>;
  /** Where a `Location` of the mock points, as a path and query to call. */
  local(location: string): string;
}

const encoder = new TextEncoder();

function requestParts(key: string | null, options: CallOptions) {
  const headers: Record<string, string> = {};
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers);
  return { headers, body };
}

/** The service core called directly, as the msw host calls it. */
export function coreWire(service: MockService, key = 'sk-mock-alice'): Wire {
  const origin = 'http://video.test';
  return {
    call(method, path, options = {}) {
      const { headers, body } = requestParts(
        options.key === undefined ? key : options.key,
        options,
      );
      const [pathname, query = ''] = path.split('?');
      const response = service.handle({
        method,
        path: pathname!,
        query,
        headers,
        body: body === undefined ? undefined : encoder.encode(body),
        origin,
      });
      const text =
        typeof response.body === 'string'
          ? response.body
          : response.body === undefined
            ? ''
            : '(bytes)';
      const json = response.headers['content-type']?.includes('json') === true;
      return Promise.resolve({
        status: response.status,
        body: json ? (JSON.parse(text) as unknown) : text,
        headers: response.headers,
        lost: response.lost !== undefined,
      });
    },
    advance(ms) {
      service.clock.advance(ms);
      return Promise.resolve();
    },
    speed: service.clock.speed,
    report: () => Promise.resolve(service.clientReport()),
    local: (location) => {
      const url = new URL(location, origin);
      return `${url.pathname}${url.search}`;
    },
  };
}

/** A mock over HTTP at `base` (its clock at `speed`; 1 for a manual clock), through fetch. */
export function httpWire(base: string, key = 'sk-mock-alice', speed = 1): Wire {
  const control = { 'content-type': 'application/json' };
  return {
    async call(method, path, options = {}) {
      const { headers, body } = requestParts(
        options.key === undefined ? key : options.key,
        options,
      );
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers,
          body: body ?? null,
          redirect: 'manual',
        });
      } catch {
        return { status: 0, body: undefined, headers: {}, lost: true };
      }
      const text = await response.text();
      const json = response.headers.get('content-type')?.includes('json') === true;
      return {
        status: response.status,
        body: json ? (JSON.parse(text) as unknown) : text,
        headers: Object.fromEntries(response.headers),
        lost: false,
      };
    },
    speed,
    async advance(ms) {
      const body = JSON.stringify({ ms: Math.round(ms) });
      const answer = await fetch(`${base}/__mock/clock/advance`, {
        method: 'POST',
        headers: control,
        body,
      });
      if (answer.status !== 200) throw new Error(`advance answered ${answer.status}`);
    },
    async report() {
      return (await (await fetch(`${base}/__mock/client-report`)).json()) as ClientReport;
    },
    local: (location) => {
      const url = new URL(location, base);
      return `${url.pathname}${url.search}`;
    },
  };
}
