import { Writable } from 'node:stream';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  UnsupportedRequestError,
  VideoTaskClient,
  type SubmitRequest,
} from '../../src/client/index.ts';
import { downloadContent } from '../../src/node/index.ts';
import { MASKED, ORIGIN, SECRET, expectNoKey, mswClient, rejection } from './client-fixture.ts';

const { msw, client, submitFresh } = mswClient();

/** Rewrites the JSON submission as multipart/form-data, as the openai SDK's videos.create sends it. */
const asForm: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const form = new FormData();
  for (const [name, value] of Object.entries((await request.json()) as Record<string, unknown>))
    form.set(name, String(value));
  const headers = new Headers(request.headers);
  headers.delete('content-type');
  return fetch(request.url, { method: request.method, headers, body: form });
};

type Call = (c: VideoTaskClient) => Promise<unknown>;
type ErrorClass = new (...args: never[]) => ApiError;

const submitting =
  (body: Partial<SubmitRequest>, headers?: Record<string, string>): Call =>
  (c) =>
    c.submit({ model: 'video-pro-v1', prompt: 'x', ...body }, headers && { headers });
const RATE_LIMITED = { 'X-Mock-Scenario': 'rate-limit:3' };
const bobsTask = async () => (await submitFresh('sk-mock-bob')).id;
const discard = () => new Writable({ write: (_c, _e, cb) => cb() });

describe('VideoTaskClient errors in-process (msw)', () => {
  it.each<[string, number, string, ErrorClass, string, RegExp, Call]>([
    [
      'AuthenticationError',
      401,
      'a bad key',
      AuthenticationError,
      'sk-wrong-key-000000',
      /Invalid API key/,
      submitting({}),
    ],
    [
      'PermissionDeniedError',
      403,
      'sk-mock-limited with video-pro-v1',
      PermissionDeniedError,
      'sk-mock-limited',
      /no access to model video-pro-v1/,
      submitting({}),
    ],
    [
      'BadRequestError',
      400,
      'an empty prompt',
      BadRequestError,
      SECRET,
      /prompt/,
      submitting({ prompt: '' }),
    ],
    [
      'ServerError',
      503,
      'an unknown model',
      ServerError,
      SECRET,
      /No available channel for model no-such-model/,
      submitting({ model: 'no-such-model' }),
    ],
    [
      'RateLimitError',
      429,
      'a rate-limited submission',
      RateLimitError,
      SECRET,
      /rate limit/,
      submitting({}, RATE_LIMITED),
    ],
    [
      'NotFoundError',
      404,
      "another user's task",
      NotFoundError,
      SECRET,
      /Failed to query task_\w+: Task task_\w+ not found/,
      async (c) => c.getVideo(await bobsTask()),
    ],
    [
      'NotFoundError',
      404,
      "another user's task (wrapper)",
      NotFoundError,
      SECRET,
      /not found/,
      async (c) => c.getWrapper(await bobsTask()),
    ],
    [
      'NotFoundError',
      404,
      "another user's video",
      NotFoundError,
      SECRET,
      /not found/,
      async (c) => downloadContent(c, await bobsTask(), { to: discard() }),
    ],
    [
      'UnsupportedRequestError',
      415,
      'a form body',
      UnsupportedRequestError,
      SECRET,
      /accepts JSON only/,
      () => submitting({})(new VideoTaskClient({ baseUrl: ORIGIN, apiKey: SECRET, fetch: asForm })),
    ],
    [
      'AuthenticationError',
      401,
      'a bad key on the catalog',
      AuthenticationError,
      'sk-wrong-key-000000',
      /Failed to list models/,
      (c) => c.listModels(),
    ],
  ])('throws %s (%i) for %s', async (_name, status, _case, type, key, message, call) => {
    const error = await rejection(call(client(key)));
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(status);
    expect(api.message).toMatch(message);
    expect(api.message).toMatch(new RegExp(`^Failed to .*\\(HTTP ${status}`));
    expect(api.body).toBeTypeOf('object');
    expect(api.serviceRequestId).toMatch(/^\d{14,}$/);
    expectNoKey(error, key);
  });

  it('reads Retry-After into retryAfterMs', async () => {
    const error = await rejection(submitting({}, RATE_LIMITED)(client()));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });

  it('redacts a key the server echoes back', async () => {
    msw.use(
      http.get('*/v1/models', ({ request }) =>
        HttpResponse.json(
          {
            error: {
              message: `Invalid token ${request.headers.get('authorization')?.slice(7)}`,
              code: 'bad',
            },
          },
          { status: 401 },
        ),
      ),
    );
    const error = await rejection(client().listModels());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain(MASKED);
    expect(JSON.stringify((error as ApiError).body)).toContain(MASKED);
    expectNoKey(error);
  });
});
