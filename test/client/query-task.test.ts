import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnexpectedResponseError } from '../../src/client/index.ts';
import { mswClient, rejection } from './client-fixture.ts';

const { service, msw, seen, client, submitFresh } = mswClient();

describe('VideoTaskClient queries in-process (msw)', () => {
  it('follows a task through both query forms', async () => {
    const c = client();
    const { id } = await submitFresh();
    expect(await c.getVideo(id)).toMatchObject({ id, status: 'queued' });
    expect(await c.getWrapper(id)).toMatchObject({
      code: 'success',
      data: { task_id: id, status: 'QUEUED' },
    });
    service().clock.advance(120_000);
    expect(await c.getVideo(id)).toMatchObject({
      id,
      status: 'completed',
      progress: 100,
      metadata: { url: expect.any(String) as unknown },
    });
    expect(await c.getWrapper(id)).toMatchObject({ data: { task_id: id, status: 'SUCCESS' } });
  });

  it('path-encodes task IDs', async () => {
    const error = await rejection(client().getVideo('task_a/../b?c=d#e'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(new URL(seen[0]!.url).pathname).toBe('/v1/videos/task_a%2F..%2Fb%3Fc%3Dd%23e');
  });

  it.each(['', '.', '..'])('refuses the task ID %j without a request', async (id) => {
    await expect(client().getVideo(id)).rejects.toThrow(TypeError);
    expect(seen).toEqual([]);
  });

  it('lists the models the key may use', async () => {
    const { data } = await client().listModels();
    expect(data.map((m) => m.id)).toEqual(
      expect.arrayContaining(['video-pro-v1', 'video-lite-v1']),
    );
  });

  it('throws UnexpectedResponseError for a 200 that is not JSON', async () => {
    msw.use(
      http.get('*/v1/videos/:id', () =>
        HttpResponse.text('<html>login</html>', { headers: { 'content-type': 'text/html' } }),
      ),
    );
    await expect(client().getVideo('task_x')).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});
