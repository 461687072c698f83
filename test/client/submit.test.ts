import { describe, expect, it } from 'vitest';
import { SECRET, mswClient } from './client-fixture.ts';

const { service, seen, client, submitFresh } = mswClient();

describe('VideoTaskClient.submit in-process (msw)', () => {
  it.each([
    ['generations', '/v1/video/generations'],
    ['videos', '/v1/videos'],
  ] as const)('submits a task through the %s endpoint', async (endpoint, path) => {
    const task = await client().submit(
      { model: 'video-lite-v1', prompt: 'a red kite' },
      { endpoint, clientRequestId: `req-${endpoint}` },
    );
    expect(task).toMatchObject({
      object: 'video',
      model: 'video-lite-v1',
      status: 'queued',
      progress: 0,
    });
    expect(task.id).toMatch(/^task_[A-Za-z0-9]{32}$/);
    expect(task.task_id).toBe(task.id);
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([`POST ${path}`]);
    expect(service().submissionsByClientRequestId.get(`req-${endpoint}`)).toBe(1);
  });

  it('submits to the generations endpoint by default', async () => {
    await submitFresh();
    expect(new URL(seen[0]!.url).pathname).toBe('/v1/video/generations');
  });

  it('sends the key only in the Authorization header, and JSON', async () => {
    await client(SECRET, { headers: { 'x-team': 'kites', authorization: 'Bearer other' } }).submit(
      { model: 'video-pro-v1', prompt: 'x' },
      { clientRequestId: 'req-h', headers: { 'content-type': 'text/plain' } },
    );
    const request = seen[0]!;
    expect(request.headers.get('authorization')).toBe(`Bearer ${SECRET}`);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('x-request-id')).toBe('req-h');
    expect(request.headers.get('x-team')).toBe('kites');
    expect(request.url).not.toContain(SECRET);
    expect(await request.text()).toBe(JSON.stringify({ model: 'video-pro-v1', prompt: 'x' }));
    for (const [name, value] of request.headers)
      if (name !== 'authorization') expect(value).not.toContain(SECRET);
  });

  it('refuses a body that is not a plain object', async () => {
    const form = new FormData();
    await expect(client().submit(form as never)).rejects.toThrow(/JSON only/);
    expect(seen).toEqual([]);
  });
});
