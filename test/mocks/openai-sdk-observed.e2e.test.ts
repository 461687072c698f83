import OpenAI, { toFile, type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { sampleVideo } from '../../mocks/core/http/media.ts';

/**
 * The official openai SDK (pinned devDependency) against `--profile observed` over real HTTP: its
 * `videos.create` sends multipart/form-data, which the deployed gateway accepts and so does this profile.
 * (The documented profile answers it 415: test/client/openai-sdk.e2e.test.ts.)
 */
describe('openai SDK videos.create against the observed profile', () => {
  let server: RunningMockServer;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startMockServer({ port: 0, clock: { mode: 'manual' }, profile: 'observed' });
    client = new OpenAI({ apiKey: 'sk-mock-alice', baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('creates a task, which videos.retrieve follows and videos.downloadContent fetches', async () => {
    const created = await client.videos.create({
      model: 'video-pro-v1',
      prompt: 'a red kite',
      seconds: '4',
      size: '1280x720',
    });
    expect(created).toMatchObject({ object: 'video', model: 'video-pro-v1', status: 'queued' });
    expect(created.id).toMatch(/^task_[0-9A-Za-z]{32}$/);
    const inspected = (await (await fetch(`${server.url}/__mock/tasks/${created.id}`)).json()) as {
      owner: string;
      charge: { seconds: number };
    };
    expect(inspected).toMatchObject({ owner: 'alice', charge: { seconds: 4 } });

    server.service.clock.advance(120_000);
    expect(await client.videos.retrieve(created.id)).toMatchObject({ status: 'completed' });
    const content = await client.videos.downloadContent(created.id);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(sampleVideo().bytes);
  });

  it('gets a bare BadRequestError for an empty prompt: the SDK reads no task-envelope body', async () => {
    const before = server.service.store.size;
    const error = await client.videos
      .create({ model: 'video-pro-v1', prompt: ' ' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    // The gateway answers {code: "invalid_request", message, data: null}; the SDK looks only at {error: …}.
    expect((error as APIError).message).toBe('400 status code (no body)');
    expect((error as APIError).error).toBeUndefined();
    expect(server.service.store.size).toBe(before);
  });

  it('gets a 400 for an input_reference file: file upload is not accepted (§2.1)', async () => {
    const before = server.service.store.size;
    const image = await toFile(new Uint8Array([137, 80, 78, 71]), 'ref.png', { type: 'image/png' });
    const error = await client.videos
      .create({ model: 'video-pro-v1', prompt: 'a kite', input_reference: image })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    // The learned gateway words it in its wrapper envelope, which the SDK does not read (as above).
    expect((error as APIError).message).toBe('400 status code (no body)');
    expect(server.service.store.size).toBe(before);
  });
});
