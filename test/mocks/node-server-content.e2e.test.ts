import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ARTIFACT_TTL_MS } from '../../mocks/core/service/service.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { call, completedTask, server, SIZE, useNodeServer, VIDEO } from './node-server/fixture.ts';

useNodeServer();

describe('startMockServer over HTTP', () => {
  describe('Range on /content', () => {
    let id: string;
    beforeAll(async () => {
      ({ id } = await completedTask());
    });

    it.each([
      { range: 'bytes=0-99', start: 0, end: 99 },
      { range: 'bytes=-16', start: SIZE - 16, end: SIZE - 1 },
      { range: 'bytes=100-', start: 100, end: SIZE - 1 },
    ])('answers $range with 206 and exactly those bytes', async ({ range, start, end }) => {
      const answer = await call(`/v1/videos/${id}/content`, { headers: { range } });
      expectConformant('getVideoContent', answer);
      expect(answer.status).toBe(206);
      expect(answer.header('content-range')).toBe(`bytes ${start}-${end}/${SIZE}`);
      expect(answer.header('content-length')).toBe(String(end - start + 1));
      expect(answer.bytes).toEqual(VIDEO.subarray(start, end + 1));
    });

    it('answers a range starting past the end with 416 JSON and the size', async () => {
      const answer = await call(`/v1/videos/${id}/content`, {
        headers: { range: `bytes=${SIZE}-` },
      });
      expectConformant('getVideoContent', answer);
      expectJsonError(answer, 416, new RegExp(`${SIZE} bytes`));
      expect(answer.header('content-range')).toBe(`bytes */${SIZE}`);
    });

    it.each(['bytes=abc', 'items=0-99', 'bytes=0-9,20-29', 'bytes=50-10'])(
      'ignores the malformed range %s and sends the whole video',
      async (range) => {
        const answer = await call(`/v1/videos/${id}/content`, { headers: { range } });
        expectConformant('getVideoContent', answer);
        expect(answer.status).toBe(200);
        expect(answer.bytes).toEqual(VIDEO);
      },
    );
  });

  describe('temporary result address', () => {
    it('works until its time to live runs out, then answers 410 while /content still works', async () => {
      const { id, url } = await completedTask();
      expect((await call(url, { key: null })).status).toBe(200);

      server.service.clock.advance(DEFAULT_ARTIFACT_TTL_MS);

      const expired = await call(url, { key: null });
      expectJsonError(expired, 410, new RegExp(`/v1/videos/${id}/content`));
      const again = await call(`/v1/videos/${id}`);
      expect((again.body as { metadata: { url: string } }).metadata.url).toBe(url);
      const content = await call(`/v1/videos/${id}/content`);
      expect(content.status).toBe(200);
      expect(content.bytes).toEqual(VIDEO);
    });

    it('refuses a tampered signature with 403 JSON', async () => {
      const { url } = await completedTask();
      const tampered = new URL(url);
      const sig = tampered.searchParams.get('sig')!;
      tampered.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
      expectJsonError(await call(tampered.href, { key: null }), 403, /signature/);
    });

    it('refuses a later expiry with the original signature', async () => {
      const { url } = await completedTask();
      const extended = new URL(url);
      extended.searchParams.set(
        'expires',
        String(Number(extended.searchParams.get('expires')) + 86_400),
      );
      expectJsonError(await call(extended.href, { key: null }), 403, /signature/);
    });
  });
});
