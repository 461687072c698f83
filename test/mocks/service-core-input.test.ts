import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

describe('bad input (§7) gets a JSON 4xx naming the problem and creates no task', () => {
  const rows: [
    string,
    { body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string>; key?: string },
    number,
    RegExp,
  ][] = [
    ['an empty prompt', { body: { model: 'video-pro-v1', prompt: '' } }, 400, /prompt is required/],
    [
      'a blank prompt',
      { body: { model: 'video-pro-v1', prompt: ' \n\t ' } },
      400,
      /prompt is required/,
    ],
    ['no prompt', { body: { model: 'video-pro-v1' } }, 400, /prompt is required/],
    ['no model', { body: { prompt: 'p' } }, 400, /model is required/],
    ['a number as model', { body: { model: 7, prompt: 'p' } }, 400, /model must be a string/],
    [
      'a number as prompt',
      { body: { model: 'video-pro-v1', prompt: 5 } },
      400,
      /prompt must be string/,
    ],
    [
      'a string duration',
      { body: { model: 'video-pro-v1', prompt: 'p', metadata: { duration: 'five' } } },
      400,
      /metadata\.duration must be number/,
    ],
    [
      'images that are not a list',
      { body: { model: 'video-pro-v1', prompt: 'p', images: 'a.png' } },
      400,
      /images must be array/,
    ],
    [
      'a bad ratio',
      { body: { model: 'video-pro-v1', prompt: 'p', metadata: { ratio: 'wide' } } },
      400,
      /metadata\.ratio must match/,
    ],
    [
      'a duration out of range',
      { body: { model: 'video-pro-v1', prompt: 'p', metadata: { duration: 0 } } },
      400,
      /between 1 and 3600/,
    ],
    [
      'seconds that are not a number',
      { body: { model: 'video-pro-v1', prompt: 'p', seconds: 'ten' } },
      400,
      /seconds must be/,
    ],
    [
      'seconds as a number',
      { body: { model: 'video-pro-v1', prompt: 'p', seconds: 5 } },
      400,
      /seconds must be string/,
    ],
    [
      'invalid JSON',
      { raw: '{"model": "video-pro-v1",', headers: { 'content-type': 'application/json' } },
      400,
      /not valid JSON/,
    ],
    [
      'an empty body',
      { raw: '', headers: { 'content-type': 'application/json' } },
      400,
      /body is empty/,
    ],
    [
      'a JSON array',
      { raw: '[1,2]', headers: { 'content-type': 'application/json' } },
      400,
      /JSON object/,
    ],
    [
      'bytes that are not UTF-8',
      { raw: new Uint8Array([0x7b, 0xff, 0x7d]), headers: { 'content-type': 'application/json' } },
      400,
      /not UTF-8/,
    ],
    [
      'a form body',
      { raw: 'model=x&prompt=y', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      415,
      /accepts JSON only/,
    ],
    [
      'a multipart body',
      { raw: '--b\r\n', headers: { 'content-type': 'multipart/form-data; boundary=b' } },
      415,
      /multipart\/form-data .* not accepted/,
    ],
    ['no content type', { raw: '{}' }, 415, /\(none\)/],
    [
      'an unknown model',
      { body: { model: 'video-ultra', prompt: 'p' } },
      503,
      /No available channel for model video-ultra under group default/,
    ],
    [
      'a model the token may not use',
      { body: { model: 'video-pro-v1', prompt: 'p' }, key: 'sk-mock-limited' },
      403,
      /no access to model video-pro-v1/,
    ],
    [
      'an exhausted quota',
      { body: { model: 'video-pro-v1', prompt: 'p' }, key: 'sk-mock-broke' },
      403,
      /quota is exhausted/,
    ],
  ];
  it.each(rows)('%s', (_name, input, status, message) => {
    const { call, service } = coreClient();
    const response = call('POST', '/v1/video/generations', input);
    expectConformant('createVideoGeneration', response);
    expectJsonError(response, status, message);
    expect(service.store.size).toBe(0);
  });

  it('answers a body over the size limit with 413', () => {
    const { call, service } = coreClient({ maxBodyBytes: 100 });
    const response = call('POST', '/v1/videos', {
      body: { model: 'video-pro-v1', prompt: 'x'.repeat(200) },
    });
    expectConformant('createVideo', response);
    expectJsonError(response, 413, /larger than 100 bytes/);
    expect(service.store.size).toBe(0);
  });

  it.each([
    ['an unknown route', 'GET', '/v1/videos/a/b/c', 404, /No route for GET/],
    ['an unknown method', 'DELETE', '/v1/videos/task_x', 405, /DELETE is not allowed/],
    ['a malformed escape in a path', 'GET', '/v1/videos/%E0%A4%A', 404, /No route/],
    [
      'another plugin name',
      'POST',
      '/other-plugin/api/v3/contents/generations/tasks',
      404,
      /No route/,
    ],
  ] as const)('answers %s with a JSON error', (_name, method, path, status, message) => {
    const { call } = coreClient();
    expectJsonError(call(method, path), status, message);
  });
});
