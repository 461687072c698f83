import type { CoreResponse } from '../../../mocks/core/http/http-types.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import {
  jsonOf,
  rewriteTaskAnswer,
  withJson,
  wrapperData,
} from '../../../mocks/defects/support.ts';

/**
 * Deployments that conform to the document in their own way: each changes only what the document
 * leaves open ("not shown"), so the contract suite must raise no failure against any of them, alone
 * or together. The false-alarm side of the self-proof, as the mutants are its other side.
 */

/** §7 names the classes only (4xx, 429, 5xx): another 4xx for each, 429 kept. */
const OTHER_4XX: Readonly<Record<number, number>> = { 400: 422, 401: 403, 403: 401, 404: 400 };

const GATEWAY_ID = /task_([0-9A-Za-z]{32})/g;
const OWN_ID = /vtsk-([0-9A-Za-z]{32})/g;
const OWN_WRAPPER_STATUS: Readonly<Record<string, string>> = {
  QUEUED: 'SUBMITTED',
  IN_PROGRESS: 'RUNNING',
};

const isError = (response: CoreResponse): boolean => response.status >= 400;

/** Ten MPEG-TS packets (188 bytes, each starting with the sync byte 0x47): a video in another container. */
const TRANSPORT_STREAM = (() => {
  const bytes = new Uint8Array(188 * 10).fill(0xff);
  for (let at = 0; at < bytes.length; at += 188) bytes.set([0x47, 0x40, 0x00, 0x10], at);
  return bytes;
})();

export const OWN_WAY: readonly Defect[] = [
  {
    name: 'own-way-status-codes',
    description: 'answers another 4xx than the mock where §7 names only the class',
    breaks: [],
    after: (_request, response) => {
      const status = OTHER_4XX[response.status];
      return status === undefined ? response : { ...response, status };
    },
  },
  {
    name: 'own-way-error-bodies',
    description: 'JSON error bodies of its own shape ("error body shape … not shown", §7)',
    breaks: [],
    after: (_request, response) => {
      const body = jsonOf(response);
      if (!isError(response) || body === undefined) return response;
      return withJson(response, { failure: { reason: JSON.stringify(body).slice(0, 200) } });
    },
  },
  {
    name: 'own-way-extra-fields',
    description: 'adds fields of its own to every JSON object it answers',
    breaks: [],
    after: (_request, response) => {
      const body = jsonOf(response);
      if (body === undefined || Array.isArray(body)) return response;
      return withJson(response, { ...body, vendor_region: 'eu-west', vendor_build: 20261123 });
    },
  },
  {
    name: 'own-way-no-request-id',
    description: 'sends no request ID header (the document names none)',
    breaks: [],
    after: (_request, response) => {
      const { 'x-oneapi-request-id': _id, ...headers } = response.headers;
      return { ...response, headers };
    },
  },
  {
    name: 'own-way-catalog-shape',
    description:
      'lists its models in a shape of its own ("response shape of /v1/models: not shown", §4)',
    breaks: [],
    after: (_request, response, { operationId }) => {
      const body = jsonOf(response);
      if (operationId !== 'listModels' || response.status !== 200 || body === undefined)
        return response;
      const ids = ((body['data'] as { id?: unknown }[] | undefined) ?? []).map((m) => m.id);
      return withJson(response, { models: ids.map((id) => ({ name: id, kind: 'video' })) });
    },
  },
  {
    name: 'own-way-content-type',
    description:
      'serves the video as application/octet-stream (§4.4: a binary stream, type not named)',
    breaks: [],
    after: (_request, response, { operationId }) =>
      operationId === 'getVideoContent' && response.status < 300
        ? {
            ...response,
            headers: { ...response.headers, 'content-type': 'application/octet-stream' },
          }
        : response,
  },
  {
    name: 'own-way-task-ids',
    description: 'public task IDs of its own form (`vtsk-…`; §1 names no format)',
    breaks: [],
    before: (request) => ({ ...request, path: request.path.replace(OWN_ID, 'task_$1') }),
    after: (_request, response) =>
      typeof response.body === 'string'
        ? { ...response, body: response.body.replace(GATEWAY_ID, 'vtsk-$1') }
        : response,
  },
  {
    name: 'own-way-fields-always',
    description: '`task_id` and `created_at` in every task object, not only where §2.2 names them',
    breaks: [],
    after: rewriteTaskAnswer(['getVideo'], (body) => ({
      ...body,
      task_id: body['id'],
      created_at: body['created_at'] ?? 1_795_000_000,
    })),
  },
  {
    name: 'own-way-wrapper-statuses',
    description: 'wrapper statuses of its own (§3 gives QUEUED, IN_PROGRESS… "as examples")',
    breaks: [],
    after: rewriteTaskAnswer(['getVideoGeneration'], (body) => {
      const data = wrapperData(body);
      const status = OWN_WRAPPER_STATUS[String(data['status'])];
      return status === undefined ? undefined : { ...body, data: { ...data, status } };
    }),
  },
  {
    name: 'own-way-transport-stream',
    description:
      'serves the video as MPEG-TS (video/mp2t) without Range (§4.4: a binary video stream, container not named)',
    breaks: [],
    before: (request, { operationId }) => {
      if (operationId !== 'getVideoContent') return request;
      const { range: _range, ...headers } = request.headers;
      return { ...request, headers };
    },
    after: (request, response, { operationId }) => {
      if (operationId !== 'getVideoContent' || response.status !== 200) return response;
      const headers = {
        ...response.headers,
        'content-type': 'video/mp2t',
        'content-length': String(TRANSPORT_STREAM.byteLength),
      };
      return request.method === 'HEAD'
        ? { status: 200, headers }
        : { status: 200, headers, body: TRANSPORT_STREAM };
    },
  },
  {
    name: 'own-way-chunked-content',
    description: 'streams the video chunked, without Content-Length, also on HEAD (§4.4: a stream)',
    breaks: [],
    after: (_request, response, { operationId }) => {
      if (operationId !== 'getVideoContent' || response.status >= 300) return response;
      const { 'content-length': _length, ...headers } = response.headers;
      return { ...response, headers: { ...headers, 'transfer-encoding': 'chunked' } };
    },
  },
];
