import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createHandlers, createMockService, type MockService } from '../../mocks/index.ts';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import { VideoTaskClient, type VideoTaskClientOptions } from '../../src/client/index.ts';
import type { VideoTask } from '../../src/spec/index.ts';

/** What the client tests share: a key to keep secret, its mask, the sample video. */
export const SECRET = 'sk-secret-1234567890wxyz';
export const MASKED = 'sk-…wxyz';
export const ORIGIN = 'http://video.test';
export const VIDEO = sampleVideo();
export const TOKENS = [{ key: SECRET, user: 'alice', group: 'default' }];

/** Asserts that no rendering of an error shows the key (masked is fine). */
export function expectNoKey(error: unknown, key = SECRET): void {
  const e = error as Error & { body?: unknown };
  for (const text of [
    e.message,
    String(e),
    inspect(e, { depth: 10 }),
    e.stack ?? '',
    JSON.stringify(e.body ?? null),
  ])
    expect(text).not.toContain(key);
}

/** The rejection of a promise (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** A temporary directory for the file's tests, removed after them; `fresh()` makes an empty one in it. */
export function scratchDir(): {
  readonly path: () => string;
  readonly fresh: () => Promise<string>;
} {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'videotask-client-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return { path: () => dir, fresh: () => mkdtemp(join(dir, 'dl-')) };
}

export interface MswClient {
  /** The mock behind msw, on a manual clock. */
  readonly service: () => MockService;
  readonly msw: ReturnType<typeof setupServer>;
  /** Every request the client sent in the current test. */
  readonly seen: Request[];
  readonly client: (apiKey?: string, options?: Partial<VideoTaskClientOptions>) => VideoTaskClient;
  /** A new task of `video-pro-v1`, submitted with `key`. */
  readonly submitFresh: (key?: string) => Promise<VideoTask>;
}

/**
 * Registers the hooks of one test file: the real mock in-process behind msw (`onUnhandledRequest:
 * 'error'`), the requests seen per test, and the handlers reset after each test.
 */
export function mswClient(): MswClient {
  let service: MockService;
  const msw = setupServer();
  const seen: Request[] = [];
  const client = (apiKey = SECRET, options: Partial<VideoTaskClientOptions> = {}) =>
    new VideoTaskClient({ baseUrl: ORIGIN, apiKey, ...options });

  beforeAll(() => {
    service = createMockService({ clock: { mode: 'manual' }, seed: 'client-test', tokens: TOKENS });
    msw.resetHandlers(...createHandlers(service));
    msw.events.on('request:start', ({ request }) => void seen.push(request.clone()));
    msw.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => {
    msw.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => msw.close());

  return {
    service: () => service,
    msw,
    seen,
    client,
    submitFresh: (key = SECRET) =>
      client(key).submit({ model: 'video-pro-v1', prompt: 'a red kite' }),
  };
}
