import { jsonResponse, type CoreResponse } from '../../../mocks/core/http/http-types.ts';
import type { ServiceWrapper, WrapContext } from '../../../mocks/core/service/wrap.ts';
import { jsonOf, rewriteTaskAnswer, withJson } from '../../../mocks/defects/support.ts';
import { OWN_WAY } from '../../contracts/support/own-way.ts';
import type { Part, Player } from './deployment.ts';

/**
 * What answers say where the document leaves it open (spec/freedoms.yaml `extra-fields`,
 * `error-bodies`, `catalog`, `wrapper-statuses`, `native-shapes`): wrappers around the core.
 */

const ownWay = (name: string): Part => ({ wrap: [OWN_WAY.find((d) => d.name === name)!] });
const wrapped = (...wrap: ServiceWrapper[]): Part => ({ wrap });

const TASK_ANSWERS = ['getVideo', 'createVideo', 'createVideoGeneration'];

/** Objects of its own nested in the OpenAI-form answers: links and usage. */
const nestedExtras: ServiceWrapper = {
  name: 'conforming-nested-extras',
  after: rewriteTaskAnswer(TASK_ANSWERS, (body) => ({
    ...body,
    links: { self: `/v1/videos/${String(body['id'])}`, content: 'content' },
    usage: { duration_seconds: 5, units: [1, 2] },
  })),
};

/** Headers of its own on every answer. */
const extraHeaders: ServiceWrapper = {
  name: 'conforming-extra-headers',
  after: (_request, response) => ({
    ...response,
    headers: {
      ...response.headers,
      'x-request-id': 'req_0f3a9c2e7b14d6a8',
      'x-ratelimit-limit': '1200',
      'x-ratelimit-remaining': '1187',
      'cache-control': 'no-cache',
      etag: 'W/"1f-abc"',
      server: 'conforming-gateway/1.0',
    },
  }),
};

/** Its own JSON error envelope for every JSON error, with its own media type. */
function errorEnvelope(
  make: (body: Record<string, unknown>, response: CoreResponse) => unknown,
  contentType: string,
): ServiceWrapper {
  return {
    name: `conforming-errors-${contentType}`,
    after: (_request, response) => {
      const body = response.status >= 400 ? jsonOf(response) : undefined;
      if (body === undefined) return response;
      const rewritten = withJson(response, make(body, response));
      return {
        ...rewritten,
        headers: { ...rewritten.headers, 'content-type': contentType },
      };
    },
  };
}

const messageOf = (body: Record<string, unknown>): string => {
  const error = body['error'] as { message?: unknown } | undefined;
  const message = error?.message ?? body['message'];
  return typeof message === 'string' ? message : 'refused';
};

const problemJson = errorEnvelope(
  (body, response) => ({
    type: 'https://errors.example.com/refused',
    title: 'Request refused',
    status: response.status,
    detail: messageOf(body),
  }),
  'application/problem+json',
);

const errorsList = errorEnvelope(
  (body, response) => ({
    errors: [
      {
        status: String(response.status),
        code: 'refused',
        title: 'Refused',
        detail: messageOf(body),
      },
    ],
  }),
  'application/vnd.api+json',
);

/** The catalog changing between reads: another model comes and goes, the order turns. */
function changingCatalog(): ServiceWrapper {
  let reads = 0;
  return {
    name: 'conforming-changing-catalog',
    after: (_request, response, { operationId }) => {
      const body = operationId === 'listModels' ? jsonOf(response) : undefined;
      const data = body?.['data'] as unknown[] | undefined;
      if (response.status !== 200 || !Array.isArray(data)) return response;
      reads++;
      const turned = [...data.slice(reads % data.length), ...data.slice(0, reads % data.length)];
      const preview = { id: 'video-preview-v0', object: 'model', created: 1_790_000_000 };
      return withJson(response, { ...body, data: reads % 2 === 0 ? turned : [...turned, preview] });
    },
  };
}

const NATIVE = ['createPluginTask', 'getPluginTask'];

/** The native answers (of `operations`) with fields of their own, or in an envelope of their own. */
function nativeAnswers(
  change: (body: Record<string, unknown>) => unknown,
  operations: readonly string[] = NATIVE,
): ServiceWrapper {
  return {
    name: 'conforming-native',
    after: (_request, response, { operationId }) => {
      if (response.status !== 200 || operationId === undefined || !operations.includes(operationId))
        return response;
      const body = jsonOf(response);
      return body === undefined ? response : withJson(response, change(body));
    },
  };
}

/** A native submission with a valid key: the key is checked first, as the gateway does. */
const keyedNative = (context: WrapContext) =>
  context.operationId === 'createPluginTask' && context.caller !== undefined;

/** Every keyed native submission refused 400 in the upstream's error shape, no task created. */
const nativeRefusal: ServiceWrapper = {
  name: 'conforming-native-refusal',
  before: (request, context) =>
    keyedNative(context) ? { ...request, method: 'GET', path: '/v1/models' } : request,
  after: (_request, response, context) =>
    keyedNative(context)
      ? jsonResponse(400, {
          error: { code: 'invalid_request', message: 'content: unsupported item type' },
        })
      : response,
};

export const ANSWER_PLAYERS: Readonly<Record<string, Player>> = {
  'extra-fields/none': () => ({}),
  'extra-fields/extra-fields': () => ownWay('own-way-extra-fields'),
  'extra-fields/nested-extras': () => wrapped(nestedExtras),
  'extra-fields/fields-always': () => ownWay('own-way-fields-always'),
  'extra-fields/extra-headers': () => wrapped(extraHeaders),
  'extra-fields/no-request-id': () => ownWay('own-way-no-request-id'),
  'error-bodies/gateway': () => ({}),
  'error-bodies/problem-json': () => wrapped(problemJson),
  'error-bodies/errors-list': () => wrapped(errorsList),
  'error-bodies/other-4xx': () => ownWay('own-way-status-codes'),
  'catalog/gateway': () => ({}),
  'catalog/own-shape': () => ownWay('own-way-catalog-shape'),
  'catalog/changing': () => wrapped(changingCatalog()),
  'wrapper-statuses/named': () => ({}),
  'wrapper-statuses/own-words': () => ownWay('own-way-wrapper-statuses'),
  'native-shapes/ark': () => ({}),
  'native-shapes/ark-extras': () =>
    wrapped(
      nativeAnswers((body) => ({ ...body, usage: { total_tokens: 0 }, region: 'cn-beijing' })),
    ),
  'native-shapes/refuses': () => wrapped(nativeRefusal),
  'native-shapes/query-wrapped': () =>
    wrapped(nativeAnswers((body) => ({ data: body }), ['getPluginTask'])),
  'native-shapes/wrapped': () => wrapped(nativeAnswers((body) => ({ data: body }))),
};
