import { describe, expect, it } from 'vitest';
import { responseProblems, serviceContract } from '../../src/spec/index.ts';
import { expectConformant } from '../helpers/conformance.ts';

const { validators } = serviceContract();
const JSON_TYPE = 'application/json; charset=utf-8';
const TASK = {
  id: 'task_Q2x7rB0pV4mN8sK1dF6hJ3gL9tY5wE2a',
  object: 'video',
  model: 'video-pro-v1',
  status: 'queued',
  progress: 0,
};
const ERROR = { error: { message: 'Task not found', type: 'invalid_request_error', code: 'x' } };
const VIDEO = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]);

describe('responseProblems: our own conformance check', () => {
  it.each([
    ['an undeclared status', 'getVideo', { status: 418, contentType: JSON_TYPE, body: ERROR }],
    [
      'an undeclared 5xx on content',
      'getVideoContent',
      { status: 500, contentType: '', body: undefined },
    ],
    [
      'a 206 on HEAD, which ignores Range',
      'headVideoContent',
      { method: 'HEAD', status: 206, contentType: 'video/mp4', body: undefined },
    ],
    [
      'a HEAD on a GET route with a status the GET does not declare',
      'listModels',
      { method: 'HEAD', status: 404, contentType: JSON_TYPE, body: undefined },
    ],
    ['a 201 on submission', 'createVideo', { status: 201, contentType: JSON_TYPE, body: TASK }],
  ])('fails on %s', (_name, operationId, response) => {
    const problems = responseProblems(validators, operationId, response);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/answered \d+, which the spec does not declare \(it declares /);
    expect(() => expectConformant(operationId, response)).toThrow();
  });

  it.each([
    ['text/html on a JSON answer', 'getVideo', 200, 'text/html', '<p>ok</p>'],
    ['JSON where the video is declared', 'getVideoContent', 200, JSON_TYPE, { url: 'x' }],
    ['a video where JSON is declared', 'getVideo', 200, 'video/mp4', VIDEO],
    ['no Content-Type on a body', 'getVideoContent', 200, '', VIDEO],
    ['a body on a redirect, which declares none', 'getVideoContent', 302, 'text/plain', 'go'],
  ])('fails on %s', (_name, operationId, status, contentType, body) => {
    const problems = responseProblems(validators, operationId, { status, contentType, body });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/content type ".*" is not declared \(it declares /);
    expect(() => expectConformant(operationId, { status, contentType, body })).toThrow();
  });

  it('fails on a body in a HEAD answer', () => {
    const head = { method: 'HEAD', status: 200, contentType: 'video/mp4', body: VIDEO };
    expect(responseProblems(validators, 'headVideoContent', head)).toEqual([
      'headVideoContent 200: a HEAD answer carries a body',
    ]);
  });

  it('fails on a JSON body that breaks a documented rule and on one that breaks an assumption', () => {
    const wrongObject = { ...TASK, object: 'task' };
    expect(
      responseProblems(validators, 'getVideo', {
        status: 200,
        contentType: JSON_TYPE,
        body: wrongObject,
      }),
    ).toEqual(['getVideo 200 documented rules: /object must be "video"']);
    const bareError = { error: { message: 'no type' } };
    expect(
      responseProblems(validators, 'getVideo', {
        status: 404,
        contentType: JSON_TYPE,
        body: bareError,
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^getVideo 404 assumptions: /)]));
  });

  it('fails on a declared header whose value breaks its schema', () => {
    const response = {
      status: 206,
      contentType: 'video/mp4',
      body: VIDEO,
      headers: { 'content-range': 'bytes 0-7', 'content-length': '8' },
    };
    expect(responseProblems(validators, 'getVideoContent', response)).toEqual([
      'getVideoContent 206 header Content-Range: (body) must match pattern "^bytes (\\*|[0-9]+-[0-9]+)/[0-9]+$"',
    ]);
  });

  it.each([
    ['a submission 5xx passed through from the upstream (5XX)', 'createVideo', 502, ERROR],
    [
      'any other submission 4xx (4XX, §7)',
      'createVideoGeneration',
      409,
      { code: 'fail_to_fetch_task', message: 'm', data: null },
    ],
    ['a temporary 5xx on a query (5XX, §7)', 'getVideo', 503, ERROR],
    ['a bare 429 without a body', 'createVideo', 429, undefined],
  ])('accepts %s', (_name, operationId, status, body) => {
    const response = { status, contentType: body === undefined ? '' : JSON_TYPE, body };
    expect(responseProblems(validators, operationId, response)).toEqual([]);
  });

  it('accepts a HEAD on a GET route with a status its GET declares, and no body', () => {
    const head = { method: 'HEAD', status: 200, contentType: JSON_TYPE, body: undefined };
    expect(responseProblems(validators, 'listModels', head)).toEqual([]);
    expect(
      responseProblems(validators, 'getVideoContent', { ...head, contentType: 'video/mp4' }),
    ).toEqual([]);
  });

  it('cannot be blinded: no operation declares a `default` response', () => {
    const withDefault = validators
      .operations()
      .filter((o) => o.operation.responses['default'] !== undefined)
      .map((o) => o.operationId);
    expect(withDefault).toEqual([]);
  });
});
