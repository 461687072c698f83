import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import { expectConformant } from '../helpers/conformance.ts';

// Found by the Prism review (issue 17): `HEAD …/content` with `Range` answered 206 with Content-Range,
// a status the HEAD operation does not declare. RFC 9110 §14.2 defines range handling for GET only:
// HEAD now ignores Range and answers the whole video's headers.
const SIZE = sampleVideo().bytes.byteLength;
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' }, seed: 1 });
});
afterAll(() => server.close());

it.each(['bytes=0-99', `bytes=${SIZE}-`])(
  'answers HEAD with Range %s as HEAD without it: 200, the whole length, no Content-Range',
  async (range) => {
    const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
    const submitted = await fetch(`${server.url}/v1/videos`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' }),
    });
    const { id } = (await submitted.json()) as { id: string };
    server.service.clock.advance(120_000);

    const head = await fetch(`${server.url}/v1/videos/${id}/content`, {
      method: 'HEAD',
      headers: { ...headers, range },
    });

    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(SIZE));
    expect(head.headers.get('content-range')).toBeNull();
    const seen = { method: 'HEAD', status: head.status, contentType: 'video/mp4', body: undefined };
    expectConformant('headVideoContent', seen);
  },
);
