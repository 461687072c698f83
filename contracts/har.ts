import { serviceUrl } from '../src/client/client-support.ts';
import { describeBody, type BodyKind } from '../src/media/video-signature.ts';
import type { KeptExchange, KeyRole } from './http-recorder.ts';
import { TOOL } from './tool.ts';

/**
 * A run's traffic as HTTP Archive 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format
 * browsers' developer tools, proxies and replay tools read: every request the run sent, in order, with
 * the answer as the recorder kept it (text bodies as far as they were kept, binary bodies by their size
 * only), keys masked (`Bearer sk-…abcd`). A report's evidence names its entry (`exchange`).
 */

export interface HarHeader {
  readonly name: string;
  readonly value: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly postData?: { readonly mimeType: string; readonly text: string };
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly content: {
      readonly size: number;
      readonly mimeType: string;
      readonly text?: string;
      readonly comment?: string;
    };
    readonly redirectURL: string;
    readonly headersSize: number;
    readonly bodySize: number;
    readonly comment?: string;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  /** What the run sent it for: "queued probe", "catalog, other key". */
  readonly comment: string;
}

export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
    readonly comment: string;
  };
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const ms = (value: number) => Math.max(0, Math.round(value * 1000) / 1000);
const headerList = (headers: Readonly<Record<string, string>>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/** The body as HAR content: its text as far as it was kept, or only its size when it is binary. */
function contentOf(exchange: KeptExchange): HarEntry['response']['content'] {
  const { head, bytes, contentType } = exchange;
  const base = { size: bytes, mimeType: contentType || 'x-unknown' };
  if (bytes === 0) return base;
  const body: BodyKind = describeBody(head, bytes);
  if (body.kind !== 'text')
    return { ...base, comment: `binary, not kept (${bytes} bytes${kindOf(body)})` };
  const text = decoder.decode(head);
  const cut = head.byteLength < bytes ? `the first ${head.byteLength} of ${bytes} bytes` : '';
  return cut === '' ? { ...base, text } : { ...base, text, comment: cut };
}

const kindOf = (body: BodyKind) => (body.kind === 'video' ? `, ${body.container}` : '');

function entryOf(exchange: KeptExchange, url: URL, authorization: string | undefined): HarEntry {
  const { sent } = exchange;
  const headers = headerList(sent.headers);
  if (authorization !== undefined) headers.unshift({ name: 'authorization', value: authorization });
  const body = sent.body;
  const answered = exchange.networkError === undefined;
  return {
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time: ms(exchange.ms),
    request: {
      method: exchange.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(body === undefined
        ? {}
        : { postData: { mimeType: sent.headers['content-type'] ?? '', text: body } }),
      headersSize: -1,
      bodySize: body === undefined ? 0 : new TextEncoder().encode(body).byteLength,
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(exchange.headers),
      content: contentOf(exchange),
      redirectURL: exchange.headers['location'] ?? '',
      headersSize: -1,
      bodySize: answered ? exchange.bytes : -1,
      ...(answered ? {} : { comment: `no answer: ${exchange.networkError}` }),
    },
    cache: {},
    timings: { send: 0, wait: ms(exchange.waitMs), receive: ms(exchange.ms - exchange.waitMs) },
    comment: exchange.label,
  };
}

/**
 * The HAR of a run's exchanges in the order they were sent (entry `i` is the exchange of index `i`;
 * requests the stopped run never sent are left out). `authorization`
 * gives the masked `Authorization` value each caller sent, or undefined for none.
 */
export function harOf(
  exchanges: readonly KeptExchange[],
  options: {
    readonly baseUrl: string;
    readonly authorization: (as: KeyRole) => string | undefined;
  },
): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: `${TOOL.name} contract`, version: TOOL.version },
      entries: exchanges
        .filter((e) => e.index >= 0)
        .sort((a, b) => a.index - b.index)
        .map((e) =>
          entryOf(e, new URL(serviceUrl(options.baseUrl, e.path)), options.authorization(e.as)),
        ),
      comment:
        'Keys are masked (Bearer sk-…abcd): set them again to replay. Binary bodies are not kept.',
    },
  };
}
