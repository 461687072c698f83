// The bad requests the node:http host must refuse with a 4xx JSON error, creating no task.
import { expect } from 'vitest';
import { call, JSON_HEADERS, MAX_BODY, raw, submitBody, type Answer } from './fixture.ts';

export interface BadInputCase {
  name: string;
  send: () => Promise<Answer>;
  status: number;
  message?: RegExp;
  operationId?: string;
  check?: (a: Answer) => void;
}

const big = new Uint8Array(5000).fill(0x20);

export const BAD_INPUT_CASES: BadInputCase[] = [
  {
    name: 'invalid JSON',
    send: () =>
      call('/v1/video/generations', {
        method: 'POST',
        headers: JSON_HEADERS,
        body: '{"model": "video-pro-v1", ',
      }),
    status: 400,
    message: /not valid JSON/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'an empty prompt',
    send: () => call('/v1/video/generations', submitBody({ model: 'video-pro-v1', prompt: '' })),
    status: 400,
    message: /prompt/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'a blank prompt',
    send: () => call('/v1/videos', submitBody({ model: 'video-pro-v1', prompt: '  \n' })),
    status: 400,
    message: /prompt/,
    operationId: 'createVideo',
  },
  {
    name: 'a missing prompt',
    send: () => call('/v1/video/generations', submitBody({ model: 'video-pro-v1' })),
    status: 400,
    message: /prompt/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'a wrong field type',
    send: () =>
      call(
        '/v1/video/generations',
        submitBody({ model: 'video-pro-v1', prompt: 'a kite', metadata: { duration: 'five' } }),
      ),
    status: 400,
    message: /metadata\.duration/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'an unknown model',
    send: () =>
      call('/v1/video/generations', submitBody({ model: 'video-nope-v9', prompt: 'a kite' })),
    status: 503,
    message: /video-nope-v9/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'a model the token may not use',
    send: () =>
      call('/v1/video/generations', {
        ...submitBody({ model: 'video-pro-v1', prompt: 'a kite' }),
        key: 'sk-mock-limited',
      }),
    status: 403,
    message: /video-pro-v1/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'an exhausted quota',
    send: () =>
      call('/v1/video/generations', {
        ...submitBody({ model: 'video-lite-v1', prompt: 'a kite' }),
        key: 'sk-mock-broke',
      }),
    status: 403,
    message: /quota/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'the unbound second family',
    send: () =>
      call('/v1/videos', {
        ...submitBody({ model: 'alt-video-v2', prompt: 'a kite' }),
        key: 'sk-mock-vip',
      }),
    status: 400,
    message: /alt-video-v2/,
    operationId: 'createVideo',
  },
  {
    name: 'a missing key',
    send: () =>
      call('/v1/video/generations', {
        ...submitBody({ model: 'video-pro-v1', prompt: 'a kite' }),
        key: null,
      }),
    status: 401,
    message: /Authorization/,
    operationId: 'createVideoGeneration',
  },
  {
    name: 'a multipart body',
    send: () => {
      const form = new FormData();
      form.set('model', 'video-pro-v1');
      form.set('prompt', 'a kite');
      return call('/v1/videos', { method: 'POST', body: form });
    },
    status: 415,
    message: /JSON/,
    operationId: 'createVideo',
  },
  {
    name: 'a body over the size limit',
    send: () =>
      raw('POST', '/v1/video/generations', {
        headers: { ...JSON_HEADERS, 'content-length': String(big.byteLength) },
        chunks: [big],
      }),
    status: 413,
    message: new RegExp(`${MAX_BODY} bytes`),
    operationId: 'createVideoGeneration',
  },
  {
    name: 'a chunked body over the size limit',
    // No content-length and two writes: node:http sends the body chunked.
    send: () =>
      raw('POST', '/v1/video/generations', {
        headers: JSON_HEADERS,
        chunks: [big.subarray(0, 800), big.subarray(800)],
      }),
    status: 413,
    message: new RegExp(`${MAX_BODY} bytes`),
    operationId: 'createVideoGeneration',
  },
  {
    name: 'an unknown route',
    send: () => call('/v1/nothing/here'),
    status: 404,
    message: /No route for GET \/v1\/nothing\/here/,
  },
  {
    name: 'a wrong method',
    send: () => call('/v1/models', { method: 'DELETE' }),
    status: 405,
    message: /DELETE/,
    check: (a) => expect(a.header('allow')).toBe('GET, HEAD'),
  },
  {
    name: 'malformed percent-encoding in the path',
    send: () => raw('GET', '/v1/videos/%E0%A4%A'),
    status: 404,
  },
];
