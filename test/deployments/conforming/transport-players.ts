import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { CoreRequest, CoreResponse } from '../../../mocks/core/http/http-types.ts';
import type { Random } from '../../../mocks/core/plan/random.ts';
import { OLDER_CONTENT_ROUTE } from '../../contracts/support/deployments.ts';
import { OWN_WAY } from '../../contracts/support/own-way.ts';
import type { FetchLayer, Handle, Layer, Part, Player } from './deployment.ts';

/**
 * How answers travel (spec/freedoms.yaml `base-url-path`, `transport`, `video-delivery`,
 * `task-id-form`): layers between the suite's fetch and the service, so the service and any defect
 * played with it see the documented paths, IDs and answers.
 */

const ownWay = (name: string) => OWN_WAY.find((d) => d.name === name)!;
const CONTENT = /^\/v1\/videos\/[^/]+\/content$/;
const encoder = new TextEncoder();

/** Where the suite is pointed (the in-process runs' base URL, before a path). */
export const SERVICE_ORIGIN = 'http://contract.test';

/** Under a path prefix: requests under it reach the service without it; nothing else answers. */
function pathPrefix(prefix: string): Layer {
  return (next) => (request) => {
    if (request.origin !== SERVICE_ORIGIN) return next(request);
    if (!request.path.startsWith(`${prefix}/`))
      return {
        status: 404,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>404 page not found</body></html>',
      };
    return next({
      ...request,
      path: request.path.slice(prefix.length),
      origin: `${request.origin}${prefix}`,
    });
  };
}

function basePlayer(slash: boolean): Player {
  return (random) => {
    const prefix = ['/api', '/gw/video', '/staging/v2'][random.int(0, 2)]!;
    return {
      layers: [pathPrefix(prefix)],
      target: { baseUrl: `${SERVICE_ORIGIN}${prefix}${slash ? '/' : ''}` },
    };
  };
}

/** Every answer's headers changed by `change`; its body left alone. */
const everyAnswer =
  (change: (response: CoreResponse) => CoreResponse): Layer =>
  (next) =>
  (request) =>
    change(next(request));

const isJsonText = (response: CoreResponse) =>
  typeof response.body === 'string' && /json/i.test(response.headers['content-type'] ?? '');

/** JSON answers gzip-coded: fetch hands over the decoded bytes and keeps the coded length's header. */
const gzipJson = everyAnswer((response) => {
  if (!isJsonText(response)) return response;
  const coded = gzipSync(encoder.encode(response.body as string));
  return {
    ...response,
    headers: {
      ...response.headers,
      'content-encoding': 'gzip',
      'content-length': String(coded.byteLength),
      vary: 'accept-encoding',
    },
  };
});

const chunked = everyAnswer((response) => {
  if (response.body === undefined) return response;
  const { 'content-length': _length, ...headers } = response.headers;
  return { ...response, headers: { ...headers, 'transfer-encoding': 'chunked' } };
});

const connectionClose = everyAnswer((response) => ({
  ...response,
  headers: { ...response.headers, connection: 'close' },
}));

/** The first byte of each answer after a wait of the run's clock: up to `maxMs`, 3 s for a submission. */
function slowFirstByte(random: Random): FetchLayer {
  const maxMs = random.int(50, 800);
  return (next, clock) => async (input, init) => {
    const submission = init?.method === 'POST';
    await clock.sleep(submission ? random.int(200, 3_000) : random.int(0, maxMs));
    return next(input, init);
  };
}

/**
 * The video reached by two redirects (302, then 307) to another host, which streams it: the content
 * route's own answer, asked again there with the method and headers of the last hop.
 */
function redirectToOtherHost(): Layer {
  const HOST = 'http://media-cdn.test';
  const held = new Map<string, CoreRequest>();
  let made = 0;
  return (next) => (request) => {
    if (request.origin === HOST) {
      const [, hop, token = ''] = request.path.split('/');
      const original = held.get(token);
      if (original === undefined)
        return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such object' };
      if (hop === 'hop') return { status: 307, headers: { location: `${HOST}/v/${token}` } };
      return next({ ...original, method: request.method, headers: request.headers });
    }
    const response = next(request);
    if (!CONTENT.test(request.path) || response.status !== 200) return response;
    const token = `o${++made}`;
    held.set(token, request);
    return { status: 302, headers: { location: `${HOST}/hop/${token}` } };
  };
}

const GATEWAY_ID = /task_[0-9A-Za-z]{32}/g;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const OTHER_FORM = {
  uuid: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g,
  'prefixed-ulid': /vt-[0-9A-HJKMNP-TV-Z]{26}/g,
  digits: /(?<!\d)\d{22}(?!\d)/g,
} as const;

type IdForm = keyof typeof OTHER_FORM;

/**
 * Another form of a core task ID, the same each time: a UUID v4, `vt-` + a ULID's 26 characters, or 22
 * digits.
 */
function otherForm(form: IdForm, id: string): string {
  const hash = createHash('sha256').update(id).digest();
  if (form === 'digits') return [...hash.subarray(0, 22)].map((b) => String(b % 10)).join('');
  if (form === 'prefixed-ulid')
    return `vt-${[...hash.subarray(0, 26)].map((b) => CROCKFORD[b % 32]).join('')}`;
  const hex = hash.toString('hex');
  const variant = '89ab'[hash[16]! % 4]!;
  const parts = [hex.slice(0, 8), hex.slice(8, 12), `4${hex.slice(13, 16)}`];
  return [...parts, `${variant}${hex.slice(17, 20)}`, hex.slice(20, 32)].join('-');
}

/** Public task IDs of another form: mapped both ways, in paths, bodies and headers. */
function taskIdForm(form: IdForm): Layer {
  const toCore = new Map<string, string>();
  const outward = (id: string) => {
    const mapped = otherForm(form, id);
    toCore.set(mapped, id);
    return mapped;
  };
  const rewrite = (text: string) => text.replace(GATEWAY_ID, outward);
  const inward = (text: string) => text.replace(OTHER_FORM[form], (id) => toCore.get(id) ?? id);
  return (next) => (request) => {
    const response = next({ ...request, path: inward(request.path), query: inward(request.query) });
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name, rewrite(value)]),
    );
    const body = typeof response.body === 'string' ? rewrite(response.body) : response.body;
    return { ...response, headers, body };
  };
}

const layer = (l: Layer): Part => ({ layers: [l] });

export const TRANSPORT_PLAYERS: Readonly<Record<string, Player>> = {
  'base-url-path/root': () => ({}),
  'base-url-path/path-prefix': basePlayer(false),
  'base-url-path/path-prefix-slash': basePlayer(true),
  'transport/plain': () => ({}),
  'transport/gzip-json': () => layer(gzipJson),
  'transport/chunked': () => layer(chunked),
  'transport/connection-close': () => layer(connectionClose),
  'transport/slow-first-byte': (random) => ({ fetchLayers: [slowFirstByte(random)] }),
  'video-delivery/streamed': () => ({}),
  'video-delivery/redirect-same-host': () => ({ mock: { contentRedirect: true } }),
  'video-delivery/redirect-hops-other-host': () => layer(redirectToOtherHost()),
  'video-delivery/octet-stream': () => ({ wrap: [ownWay('own-way-content-type')] }),
  'video-delivery/older-route': () => ({ wrap: [OLDER_CONTENT_ROUTE] }),
  'result-address-lifetime/hour': () => ({}),
  'result-address-lifetime/minute': () => ({ mock: { artifactTtlMs: 60_000 } }),
  'task-id-form/gateway': () => ({}),
  'task-id-form/uuid': () => layer(taskIdForm('uuid')),
  'task-id-form/prefixed-ulid': () => layer(taskIdForm('prefixed-ulid')),
  'task-id-form/digits': () => layer(taskIdForm('digits')),
};

/** The service behind its layers: the first layer given is the outermost. */
export const behind = (handle: Handle, layers: readonly Layer[]): Handle =>
  layers.reduceRight((next, l) => l(next), handle);
