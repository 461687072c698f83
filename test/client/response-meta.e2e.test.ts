import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import {
  BadRequestError,
  NotFoundError,
  RateLimitError,
  ResponseTooLargeError,
  UnexpectedResponseError,
  VideoTaskClient,
  type VideoContent,
} from '../../src/client/index.ts';
import { rawServer, type RawServer } from '../helpers/raw-server.ts';

const SECRET = 'sk-secret-1234567890wxyz';
const TOKENS = [
  { key: SECRET, user: 'alice', group: 'default' },
  { key: 'sk-other-0987654321abcd', user: 'bob', group: 'default' },
];
let observed: RunningMockServer;
let limited: RunningMockServer;
let headers: RawServer;

beforeAll(async () => {
  const common = { port: 0, clock: { mode: 'manual' }, tokens: TOKENS } as const;
  observed = await startMockServer({ ...common, seed: 'meta', profile: 'observed' });
  limited = await startMockServer({
    ...common,
    seed: 'limited',
    rateLimit: { requests: 1, windowMs: 60_000 },
  });
  // A gateway with rate-limit headers on every answer, and one that echoes the key in a header.
  headers = await rawServer((req, res) => {
    res.writeHead(req.url === '/v1/models' ? 200 : 429, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '12',
      'retry-after': '12',
      'x-request-id': 'gw-7',
      'x-echo': `Bearer ${SECRET}`,
    });
    res.end(req.url === '/v1/models' ? '{"data":[]}' : '{"error":{"message":"slow down"}}');
  });
});
afterAll(() => Promise.all([observed.close(), limited.close(), headers.close()]));

const client = (url: string, apiKey = SECRET, options = {}) =>
  new VideoTaskClient({ baseUrl: url, apiKey, ...options });

describe('withResponse(): the answer with its headers (issue 16)', () => {
  it("gives the service's request ID of a submission and the gateway's billing header", async () => {
    const { data: task, meta } = await client(observed.url)
      .withResponse()
      .submit({ model: 'video-pro-v1', prompt: 'a kite' });
    expect(task.id).toMatch(/^task_/);
    expect(meta.status).toBe(200);
    expect(meta.url).toBe(`${observed.url}/v1/video/generations`);
    expect(meta.serviceRequestId).toMatch(/^[0-9A-Za-z]+$/);
    expect(meta.serviceRequestId).toBe(meta.headers['x-oneapi-request-id']);
    expect(meta.headers['x-new-api-other-ratios']).toBeDefined();
  });

  it('gives the same for queries, the catalog and the video, while the plain calls keep their types', async () => {
    const c = client(observed.url);
    const task = await c.submit({ model: 'video-pro-v1', prompt: 'a kite' });
    observed.service.clock.advance(600_000);
    const plain = await c.getVideo(task.id);
    expect(plain).not.toHaveProperty('meta');
    const calls = c.withResponse();
    const answers = [
      await calls.getVideo(task.id),
      await calls.getWrapper(task.id),
      await calls.listModels(),
      await calls.content(task.id),
    ];
    for (const { meta } of answers) expect(meta.serviceRequestId).toMatch(/^[0-9A-Za-z]+$/);
    expect(answers[3]!.data).toMatchObject({ contentType: 'video/mp4' });
    await (answers[3]!.data as VideoContent).body.cancel();
  });

  it('reads Retry-After and X-RateLimit-*, and masks a key a header echoes', async () => {
    const { meta } = await client(headers.url).withResponse().listModels();
    expect(meta.rateLimit).toEqual({ limit: '60', remaining: '0', reset: '12' });
    expect(meta.retryAfterMs).toBe(12_000);
    expect(meta.serviceRequestId).toBe('gw-7');
    expect(meta.headers['x-echo']).toBe('Bearer sk-…wxyz');
    const error = await client(headers.url)
      .getVideo('task_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).meta?.rateLimit).toMatchObject({ remaining: '0' });
    expect((error as RateLimitError).hint).toMatch(/rate limiting/);
  });

  it("puts a refused request's headers on the error", async () => {
    const c = client(limited.url);
    await c.listModels();
    const error = await c
      .submit({ model: 'video-pro-v1', prompt: 'a kite' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const { meta, retryAfterMs } = error as RateLimitError;
    expect(meta?.status).toBe(429);
    expect(meta?.retryAfterMs).toBe(retryAfterMs);
    expect(meta?.serviceRequestId).toBe((error as RateLimitError).serviceRequestId);
  });
});

describe('hints from a real deployment shape', () => {
  it("says 'not yours or does not exist' for the gateway's 400 task_not_exist", async () => {
    const foreign = await client(observed.url, 'sk-other-0987654321abcd').submit({
      model: 'video-pro-v1',
      prompt: 'a kite',
    });
    const error = await client(observed.url)
      .getVideo(foreign.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('task_not_exist');
    expect((error as BadRequestError).hint).toMatch(/^this task is not yours or does not exist/);
  });

  it("says 'not finished yet: wait' for content before completion, and 'not yours' for a foreign video", async () => {
    const c = client(observed.url);
    const task = await c.submit({ model: 'video-pro-v1', prompt: 'x [mock:stuck]' });
    const early = await c.content(task.id).catch((e: unknown) => e);
    expect((early as BadRequestError).hint).toMatch(/^not finished yet .*videotask wait ID/);
    const foreign = await client(observed.url, 'sk-other-0987654321abcd')
      .content(task.id)
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect((foreign as NotFoundError).hint).toMatch(/^not found, or not yours/);
  });
});

describe('maxResponseBytes', () => {
  it('refuses a JSON answer over a smaller cap, with the headers of the answer', async () => {
    const error = await client(observed.url, SECRET, { maxResponseBytes: 64 })
      .listModels()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as ResponseTooLargeError).limit).toBe(64);
    expect((error as ResponseTooLargeError).meta?.serviceRequestId).toMatch(/^[0-9A-Za-z]+$/);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses maxResponseBytes %s', (value) => {
    expect(() => client(observed.url, SECRET, { maxResponseBytes: value })).toThrow(
      /maxResponseBytes must be a positive number of bytes/,
    );
  });
});
