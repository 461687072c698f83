import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { sampleVideo } from '../../mocks/core/http/media.ts';

/**
 * The official openai SDK (pinned) against the mock over real HTTP: which of its video methods work
 * with this service. The summary is test/client/OPENAI-SDK.md.
 */
describe('openai SDK against the mock', () => {
  let server: RunningMockServer;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startMockServer({ port: 0, clock: { mode: 'manual' }, seed: 'openai-sdk' });
    client = new OpenAI({ apiKey: 'sk-mock-alice', baseURL: `${server.url}/v1` });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A JSON submission through the SDK's generic POST (videos.create sends multipart). */
  const submit = () =>
    client.post<OpenAI.Videos.Video>('/videos', {
      body: { model: 'video-pro-v1', prompt: 'a red kite' },
    });

  it('submits JSON through client.post("/videos")', async () => {
    const task = await submit();
    expect(task).toMatchObject({
      object: 'video',
      model: 'video-pro-v1',
      status: 'queued',
      progress: 0,
    });
    expect(task.id).toMatch(/^task_/);
  });

  it('retrieves the task with videos.retrieve', async () => {
    const { id } = await submit();
    const task = await client.videos.retrieve(id);
    expect(task).toMatchObject({ id, object: 'video', status: 'queued' });
    server.service.clock.advance(120_000);
    expect(await client.videos.retrieve(id)).toMatchObject({
      id,
      status: 'completed',
      progress: 100,
    });
  });

  it('downloads the bytes with videos.downloadContent', async () => {
    const { id } = await submit();
    server.service.clock.advance(120_000);
    const response = await client.videos.downloadContent(id);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
    expect(bytes).toEqual(sampleVideo().bytes);
  });

  it('gets a BadRequestError from videos.downloadContent before completion', async () => {
    const { id } = await submit();
    const error = await client.videos.downloadContent(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as APIError).message).toBe(
      '400 Task is not completed yet, current status: QUEUED',
    );
  });

  it('gets a 415 from videos.create, whose message says the service takes JSON only', async () => {
    const before = server.service.store.size;
    const error = await client.videos
      .create({ model: 'video-pro-v1', prompt: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    const api = error as APIError;
    expect(api.status).toBe(415);
    expect(api.message).toMatch(
      new RegExp(
        String.raw`^415 Content-Type multipart\/form-data; boundary=\S+ is not supported: ` +
          String.raw`this service accepts JSON only \(§4\.1, §5\)\. Send the body as application\/json; ` +
          String.raw`multipart\/form-data \(as the openai SDK's videos\.create sends\) is not accepted\.$`,
      ),
    );
    expect(api.code).toBe('unsupported_media_type');
    expect(server.service.store.size).toBe(before);
  });

  it('lists the models with models.list', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(
      expect.arrayContaining(['video-pro-v1', 'video-lite-v1']),
    );
  });

  it.each([
    ['videos.list', 405, () => client.videos.list()],
    ['videos.delete', 405, async () => client.videos.delete((await submit()).id)],
    ['videos.remix', 404, async () => client.videos.remix((await submit()).id, { prompt: 'y' })],
  ] as const)(
    'gets %s refused with %i (not a route of the service, §4)',
    async (_name, status, call) => {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(status);
    },
  );
});
